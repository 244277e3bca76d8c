package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wispapp/wisp/internal/ids"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// SummaryInstruction is the system prompt of a summary call; tests and the fake
// model route on its start.
const SummaryInstruction = "You summarise a conversation between a user and an assistant so that the assistant " +
	"can go on with it without the messages themselves. Fold the summary so far (if any) and the messages below " +
	"into one new summary: keep facts, names, numbers, decisions, open questions and what the user asked to " +
	"remember; drop small talk. Write plain prose or short bullet points, in the conversation's language, " +
	"with nothing before or after the summary."

// summaryMaxTokens bounds a summary's length: about 15% of the budget, at most 1024.
func summaryMaxTokens(b budget) int { return max(64, min(1024, b.budget*15/100)) }

// asker makes a model call of its own (*runtime.Agent).
type asker interface {
	Ask(ctx context.Context, system, text string, maxTokens int, onText func(string)) (llm.Response, error)
}

// summaryEmit puts a summary's events in the log of the run that makes it.
type summaryEmit func(ev runtime.Event)

// summaryDeltaBytes is about how much of a summary's text one summary_delta carries.
const summaryDeltaBytes = 256

// errSummaryFull stops a summary call whose answer outgrew its bound.
var errSummaryFull = errors.New("the summary reached its size limit")

// summarise folds prev (nil for none) and the messages fold (oldest first, the
// messages after prev on the branch) into a new summary through fold's last message,
// in one model call or, when they do not fit one, one per chunk. Its events go to
// emit; the summary is saved, and every window told, as it starts and as it ends.
func (s *Service) summarise(ctx context.Context, runID string, emit summaryEmit, b budget,
	prev *store.Summary, fold []counted) (*store.Summary, error) {
	last := fold[len(fold)-1].msg
	sum := store.Summary{
		ID: ids.New(), ConversationID: last.ConversationID, ThroughID: last.ID, Covers: last.Depth + 1,
		FromAt: fold[0].msg.CreatedAt, ThroughAt: last.CreatedAt, Status: store.SummaryStreaming,
		RunID: runID, Model: b.model, CreatedAt: time.Now(),
	}
	if prev != nil {
		sum.FromAt = prev.FromAt
	}
	if err := s.store.CreateSummary(ctx, sum); err != nil {
		return nil, err
	}
	s.publishSummary(sum)
	emit(runtime.Event{Type: runtime.EventSummaryStart, Data: runtime.SummaryStart{Summary: summaryInfo(sum)}})

	// The text goes to the log in pieces of a few hundred bytes, not one event per
	// token: a summary is read when it is done, not word by word.
	var pending strings.Builder
	flush := func() {
		if pending.Len() > 0 {
			emit(runtime.Event{Type: runtime.EventSummaryDelta, Data: runtime.SummaryDelta{SummaryID: sum.ID, Text: pending.String()}})
			pending.Reset()
		}
	}
	text, usage, err := s.foldChunks(ctx, b, prev, fold, func(t string) {
		pending.WriteString(t)
		if pending.Len() >= summaryDeltaBytes {
			flush()
		}
	})
	flush()
	sum.InputTokens, sum.OutputTokens = usage.InputTokens, usage.OutputTokens
	sum.CacheReadTokens, sum.CacheWriteTokens = usage.CacheReadTokens, usage.CacheWriteTokens
	sum.Text = text
	sum.Tokens = b.counter.Count(text)
	sum.Status = store.SummaryDone
	if err == nil && strings.TrimSpace(text) == "" {
		err = errors.New("the model answered nothing")
	}
	if err != nil {
		sum.Status, sum.Error = store.SummaryFailed, "the summary failed: "+err.Error()
	}
	if ferr := s.store.FinishSummary(context.WithoutCancel(ctx), sum); ferr != nil && err == nil {
		err = ferr
	}
	s.recordUsage(ctx, UsageEntry{ConversationID: sum.ConversationID, RunID: runID, Kind: UsageSummary, Model: sum.Model, Usage: usage})
	s.publishSummary(sum)
	emit(runtime.Event{Type: runtime.EventSummaryEnd, Data: runtime.SummaryEnd{Summary: summaryInfo(sum)}})
	if err != nil {
		return &sum, err
	}
	return &sum, nil
}

// foldChunks makes the summary text: the messages are cut into chunks that fit one
// call each with the summary so far; only the last call's text streams to onText.
func (s *Service) foldChunks(ctx context.Context, b budget, prev *store.Summary, fold []counted,
	onText func(string)) (string, llm.Usage, error) {
	ask, ok := s.agent.(asker)
	if !ok {
		return "", llm.Usage{}, errors.New("the agent cannot make a summary")
	}
	maxOut := summaryMaxTokens(b)
	// What one call may carry besides the summary so far: half of what is left, so
	// that a provider counting more than we do still takes it.
	room := max(256, (b.window-maxOut-b.margin)/2-b.count(SummaryInstruction)-maxOut)
	so := ""
	if prev != nil {
		so = prev.Text
	}
	chunks := chunk(b, fold, room)
	var usage llm.Usage
	for i, c := range chunks {
		var prompt strings.Builder
		if so != "" {
			prompt.WriteString("The summary so far:\n\n" + so + "\n\n")
		}
		prompt.WriteString("The messages to fold in:\n\n" + c)
		final := i == len(chunks)-1
		text, u, err := s.askBounded(ctx, ask, prompt.String(), maxOut, func(t string) {
			if final {
				onText(t)
			}
		})
		usage = usage.Add(u)
		if err != nil {
			return text, usage, err
		}
		so = text
	}
	return so, usage, nil
}

// askBounded makes one summary call, keeping at most about maxOut tokens of its
// answer (a model that ignores max tokens is cut off).
func (s *Service) askBounded(ctx context.Context, ask asker, prompt string, maxOut int, onText func(string)) (string, llm.Usage, error) {
	limit := maxOut * 4 // bytes: about maxOut tokens of prose
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var b strings.Builder
	resp, err := ask.Ask(ctx, SummaryInstruction, prompt, maxOut, func(t string) {
		if b.Len() >= limit {
			return
		}
		if b.Len()+len(t) > limit {
			t = cutRunes(t, limit-b.Len())
			cancel(errSummaryFull)
		}
		b.WriteString(t)
		onText(t)
	})
	if err != nil && errors.Is(context.Cause(ctx), errSummaryFull) {
		err = nil
	}
	text := b.String()
	if err == nil && text == "" && len(resp.Text) <= limit {
		text = resp.Text // a provider that does not stream
	}
	return strings.TrimSpace(text), resp.Usage, err
}

// cutRunes is the longest prefix of s of at most n bytes that ends on a rune.
func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// chunk writes the messages as transcripts of at most room tokens each; a message
// too long for one is shortened (head and tail).
func chunk(b budget, fold []counted, room int) []string {
	var out []string
	var cur strings.Builder
	n := 0
	for _, c := range fold {
		text := strings.TrimSpace(c.msg.Text)
		if names := attachedNames(c.atts); names != "" {
			text = strings.TrimSpace(text + "\n[attached: " + names + "]")
		}
		if text == "" {
			continue
		}
		t := c.tokens
		if t > room/2 {
			text = shorten(text, max(200, room*3/2), "")
			t = b.count(text)
		}
		line := "User: "
		if c.msg.Role == "assistant" {
			line = "Assistant: "
		}
		line += text + "\n\n"
		if n > 0 && n+t > room {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
		cur.WriteString(line)
		n += t
	}
	if cur.Len() > 0 || len(out) == 0 {
		out = append(out, cur.String())
	}
	return out
}

// attachedNames names a message's attachments for a summary: "a.png (image),
// report.pdf (pdf)".
func attachedNames(atts []store.Attachment) string {
	names := make([]string, len(atts))
	for i, a := range atts {
		names[i] = a.Name + " (" + a.Blob.Kind + ")"
	}
	return strings.Join(names, ", ")
}

// shorten keeps the head and tail of text within about keep bytes, with a marker
// saying how much was cut (and, for a tool's result, how to see it again).
func shorten(text string, keep int, tool string) string {
	if len(text) <= keep {
		return text
	}
	head := cutRunes(text, keep*2/3)
	tailLen := keep - len(head)
	tail := text[len(text)-tailLen:]
	for len(tail) > 0 && tail[0]&0xC0 == 0x80 {
		tail = tail[1:]
	}
	cut := len(text) - len(head) - len(tail)
	how := ""
	if tool != "" {
		how = "; call " + tool + " again to see all of it"
	}
	return fmt.Sprintf("%s\n[… %s characters cut to fit the model's context window%s]\n%s", head, thousands(cut), how, tail)
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// summaryInfo is a summary as events and the API carry it.
func summaryInfo(m store.Summary) runtime.SummaryInfo {
	return runtime.SummaryInfo{
		ID: m.ID, ConversationID: m.ConversationID, ThroughID: m.ThroughID, Covers: m.Covers,
		FromAt: isoTime(m.FromAt), ThroughAt: isoTime(m.ThroughAt), Text: m.Text, Status: m.Status, Error: m.Error,
		RunID: m.RunID, Tokens: m.Tokens, CreatedAt: isoTime(m.CreatedAt),
	}
}

// WireSummary is a summary as the API answers it.
func WireSummary(m store.Summary) wire.Summary { return summaryInfoWire(summaryInfo(m)) }

func summaryInfoWire(i runtime.SummaryInfo) wire.Summary {
	return wire.Summary{ID: i.ID, ConversationID: i.ConversationID, ThroughID: i.ThroughID, Covers: i.Covers,
		FromAt: i.FromAt, ThroughAt: i.ThroughAt, Text: i.Text, Status: wire.SummaryStatus(i.Status), Error: i.Error,
		RunID: i.RunID, Tokens: i.Tokens, CreatedAt: i.CreatedAt}
}

func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// publishSummary tells every window a summary changed.
func (s *Service) publishSummary(m store.Summary) {
	s.events.Publish(wire.NewConversationSummary(m.ConversationID, WireSummary(m)))
}

// pageSummaries are the summaries (but undone ones) through a message of a page.
func (s *Service) pageSummaries(ctx context.Context, convID string, msgs []store.Message) ([]wire.Summary, error) {
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
	}
	sums, err := s.store.SummariesThrough(ctx, convID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Summary, len(sums))
	for i, m := range sums {
		out[i] = WireSummary(m)
	}
	return out, nil
}
