package chat

import (
	"context"
	"fmt"
	"sync"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// A turn's context is assembled by tokens (docs/context.md): the budget is the
// model's window less the reply's max tokens, the tools and a margin; the branch is
// walked up from the question's parent, in pages, counting each message (its count is
// saved with it), until the newest done summary on it or the root. When the context
// passes summarizeAt% of the budget, older messages are summarised first (summary.go).

// Counter counts the tokens of text for one model (a tokens.Counter).
type Counter interface {
	Count(text string) int
	Name() string
}

// Where a model's context window comes from.
const (
	WindowProvider = "provider"
	WindowConfig   = "config"
	WindowDefault  = "default"
)

// Defaults of the budget.
const (
	DefaultWindow      = 8192
	DefaultSummarizeAt = 80
	// messageOverhead is what a message costs beyond its text (role, separators).
	messageOverhead = 4
	// firstPage and walkPage are how many messages the first read of the branch
	// takes and the most any later one does (each read doubles).
	firstPage = 64
	walkPage  = 256
	// summaryHeader is what the line introducing a summary costs, at most.
	summaryHeader = 40
	// walkFactor bounds a walk: it stops after this many budgets of tokens (a branch
	// that was never summarised is summarised from there on).
	walkFactor = 6
)

// byteCounter is the counter when none is given: a byte count over 3, rounded up,
// which over-estimates every tokenizer on English text.
type byteCounter struct{}

func (byteCounter) Count(text string) int { return (len(text) + 2) / 3 }
func (byteCounter) Name() string          { return "bytes/3" }

// budget is what a turn may send, in tokens.
type budget struct {
	model       string
	window      int
	source      string
	maxTokens   int
	tools       int
	margin      int
	budget      int // window − maxTokens − tools − margin
	summarizeAt int // percent of budget
	counter     Counter
	calib       float64 // the provider's count over ours, learned from its usage
	memo        *memo
}

// count is the calibrated token count of text.
func (b budget) count(text string) int {
	return b.scale(b.counter.Count(text))
}

// fixed is count for a text sent with every turn (the system prompt, a tool's
// schema): remembered.
func (b budget) fixed(text string) int {
	if b.memo != nil && len(text) > 256 {
		return b.scale(b.memo.count(b.counter, text))
	}
	return b.count(text)
}

// scale calibrates a raw count and adds a message's overhead.
func (b budget) scale(raw int) int { return int(float64(raw)*b.calib+0.999) + messageOverhead }

// memo remembers the counts of texts sent again and again (the system prompt, the
// tools' schemas), by counter; 32 at most.
type memo struct {
	mu sync.Mutex
	by map[string]int
}

func (m *memo) count(c Counter, text string) int {
	k := c.Name() + "\x00" + text
	m.mu.Lock()
	n, ok := m.by[k]
	m.mu.Unlock()
	if ok {
		return n
	}
	n = c.Count(text)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil || len(m.by) >= 32 {
		m.by = map[string]int{}
	}
	m.by[k] = n
	return n
}

// known reports whether the window is the provider's or the settings', not a guess:
// only then is a request refused for its size before the provider sees it.
func (b budget) known() bool { return b.source != WindowDefault }

// threshold is the context size at which a summary is made.
func (b budget) threshold() int { return b.budget * b.summarizeAt / 100 }

// budgetNow is the budget of the next turn with the settings now.
func (s *Service) budgetNow(ctx context.Context) budget {
	set := s.agent.Settings()
	b := budget{model: set.Model, maxTokens: set.MaxTokens, summarizeAt: DefaultSummarizeAt, counter: byteCounter{}, calib: 1, memo: &s.memo}
	b.window, b.source = DefaultWindow, WindowDefault
	if s.opts.Window != nil {
		if n, src := s.opts.Window(ctx); n > 0 {
			b.window, b.source = n, src
		}
	}
	if s.opts.SummarizeAt != nil {
		if p := s.opts.SummarizeAt(); p >= 50 && p <= 95 {
			b.summarizeAt = p
		}
	}
	if s.opts.Counter != nil {
		if c := s.opts.Counter(set.Model); c != nil {
			b.counter = c
		}
	}
	b.calib = s.calibration(b.model, b.counter.Name())
	if t, ok := s.agent.(interface{ Tools() []llm.Tool }); ok {
		b.tools = b.toolTokens(t.Tools())
	}
	b.margin = max(256, b.window/20)
	if b.maxTokens <= 0 {
		b.maxTokens = 1024
	}
	b.budget = b.window - b.maxTokens - b.tools - b.margin
	if b.budget < 256 {
		b.budget = 256 // a window too small for the settings: try, and let the provider say
	}
	return b
}

// calibrations are the learned ratios of the provider's prompt tokens to ours, by
// model and counter.
type calibrations struct {
	mu sync.Mutex
	by map[string]float64
}

func (s *Service) calibration(model, counter string) float64 {
	s.calib.mu.Lock()
	defer s.calib.mu.Unlock()
	if f, ok := s.calib.by[model+"\x00"+counter]; ok {
		return f
	}
	return 1
}

// calibrate learns from a provider's reported prompt tokens (ours: counted, before
// calibration). Absurd reports are ignored; the ratio moves slowly down, quickly up.
func (s *Service) calibrate(model, counter string, counted, reported int) {
	if counted < 64 || reported <= 0 || reported > 50*counted {
		return
	}
	r := min(max(float64(reported)/float64(counted), 0.7), 4)
	s.calib.mu.Lock()
	defer s.calib.mu.Unlock()
	if s.calib.by == nil {
		s.calib.by = map[string]float64{}
	}
	k := model + "\x00" + counter
	old, ok := s.calib.by[k]
	switch {
	case !ok:
		s.calib.by[k] = r
	case r > old:
		s.calib.by[k] = r
	default:
		s.calib.by[k] = old*0.8 + r*0.2
	}
}

// bump raises a model's calibration after the provider refused a request we counted
// as fitting.
func (s *Service) bump(model, counter string) {
	s.calib.mu.Lock()
	defer s.calib.mu.Unlock()
	if s.calib.by == nil {
		s.calib.by = map[string]float64{}
	}
	k := model + "\x00" + counter
	f, ok := s.calib.by[k]
	if !ok {
		f = 1
	}
	s.calib.by[k] = min(f*1.25, 4)
}

// counted is a message of the branch with its token count.
type counted struct {
	msg    store.Message
	tokens int // of its text
	atts   []store.Attachment
}

// cost is about what a message costs with its attachments named (a document's text
// and an image are counted by the turn: they have shares of their own).
func (c counted) cost() int { return c.tokens + attachmentLine*len(c.atts) }

// attachmentLine is about what the line naming an attachment costs.
const attachmentLine = 30

// walked is the part of a branch a turn's context is made of: the newest done
// summary on it (nil when none) and the messages after it, oldest first.
type walked struct {
	prev  *store.Summary
	msgs  []counted
	total int // tokens of msgs
	// whole: the walk reached the summary or the root (not stopped by its bound).
	whole bool
}

// walk reads the branch up from parentID ("" for none) until the newest done
// summary on it, the root, or limit tokens, in pages, counting each message (the
// counts are saved for the next turn).
func (s *Service) walk(ctx context.Context, convID, parentID string, b budget, limit int) (walked, error) {
	return s.walkSkipping(ctx, convID, parentID, b, limit, "")
}

// walkSkipping is walk as if the summary skip did not exist.
func (s *Service) walkSkipping(ctx context.Context, convID, parentID string, b budget, limit int, skip string) (walked, error) {
	w := walked{whole: true}
	if parentID == "" {
		return w, nil
	}
	done, err := s.store.Summaries(ctx, convID, store.SummaryDone)
	if err != nil {
		return w, err
	}
	through := make(map[string]*store.Summary, len(done))
	for i := range done {
		if done[i].ID != skip {
			through[done[i].ThroughID] = &done[i] // oldest first: the newest wins
		}
	}
	var rev []counted
	fresh := map[string]int{}
	for cursor, size := parentID, s.walkHint(convID); cursor != ""; size = min(2*size, walkPage) {
		page, err := s.store.PathCounted(ctx, convID, cursor, size)
		if err != nil {
			return w, err
		}
		if len(page) == 0 {
			break
		}
		atts, err := s.pageAttachments(ctx, page)
		if err != nil {
			return w, err
		}
		for i := len(page) - 1; i >= 0; i-- {
			m := page[i].Message
			m.ConversationID = convID
			if sum, ok := through[m.ID]; ok {
				w.prev = sum
				cursor = ""
				break
			}
			raw := page[i].Tokens
			if page[i].Counter != b.counter.Name() {
				raw = b.counter.Count(m.Text)
				fresh[m.ID] = raw
			}
			t := b.scale(raw)
			rev = append(rev, counted{msg: m, tokens: t, atts: atts[m.ID]})
			w.total += t
			if w.total > limit {
				w.whole = false
				cursor = ""
				break
			}
			if i == 0 {
				cursor = m.ParentID
			}
		}
	}
	if len(fresh) > 0 {
		s.saveCounts(convID, b.counter.Name(), fresh)
	}
	s.setWalkHint(convID, len(rev))
	w.msgs = make([]counted, len(rev))
	for i, c := range rev {
		w.msgs[len(rev)-1-i] = c
	}
	return w, nil
}

// summaryMessage is a summary as the model reads it, first in its context.
func summaryMessage(sum *store.Summary) llm.Message {
	return llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf(
		"Earlier in this conversation (a summary of %d messages, %s – %s):\n\n%s",
		sum.Covers, sum.FromAt.Format("2006-01-02 15:04"), sum.ThroughAt.Format("2006-01-02 15:04"), sum.Text)}
}

// history is a walked branch as the model sees it: the summary first, then the
// messages after it, each with what files sends of its attachments.
func (w walked) history(files turnFiles) []llm.Message {
	out := make([]llm.Message, 0, len(w.msgs)+1)
	if w.prev != nil {
		out = append(out, summaryMessage(w.prev))
	}
	for _, c := range w.msgs {
		if m, ok := files.message(c.msg); ok {
			out = append(out, m)
		}
	}
	return out
}

// used is what the context costs before the question: system, summary, messages.
func (w walked) used(b budget, system string) int {
	n := b.fixed(system) + w.total
	if w.prev != nil {
		if w.prev.Model == b.model && w.prev.Tokens > 0 {
			n += b.scale(w.prev.Tokens + summaryHeader) // counted when it was made
		} else {
			n += b.count(summaryMessage(w.prev).Text)
		}
	}
	return n
}

// errQuestionTooLong refuses a question that alone does not fit the budget.
func questionTooLong(n, budget int) error {
	return fault.Invalid.Errorf("the message is too long for the model's context window: about %d tokens, and at most %d fit", n, budget)
}

// checkFits refuses, before anything is saved or sent, a question that alone (with
// the system prompt) does not fit the budget.
func (s *Service) checkFits(ctx context.Context, text string) error {
	b := s.budgetNow(ctx)
	if !b.known() {
		return nil // a window Wisp only guessed: the provider says whether it fits
	}
	n := b.fixed(s.systemPrompt()) + b.count(text)
	if n > b.budget {
		return questionTooLong(n, b.budget)
	}
	return nil
}

// errNoFit is why a step cannot be sent: the context does not fit even shortened.
type errNoFit struct {
	tokens, window int
	summarised     bool
}

func (e errNoFit) Error() string {
	if e.summarised {
		return fmt.Sprintf("the conversation does not fit the model's context window (%d tokens of %d) even after summarising", e.tokens, e.window)
	}
	return fmt.Sprintf("the conversation does not fit the model's context window (%d tokens of %d)", e.tokens, e.window)
}

// contextTooLong reports whether a provider refused a request as too long.
func contextTooLong(err error) bool { return llm.IsContextTooLong(err) }

// runtime's hook, implemented per turn by turnFit (fit.go).
var _ runtime.Fitter = (*turnFit)(nil)

// toolTokens is what the tools cost in a request.
func (b budget) toolTokens(tools []llm.Tool) int {
	n := 0
	for _, tool := range tools {
		n += b.fixed(tool.Name + tool.Description + string(tool.Parameters))
	}
	return n
}

// saveCounts saves new token counts off the turn's path (a write transaction the
// model call need not wait for); Stop waits for it.
func (s *Service) saveCounts(convID, counter string, counts map[string]int) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.bg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bg.Done()
		if err := s.store.SetMessageTokens(context.Background(), counter, counts); err != nil {
			s.log.Warn("cannot save token counts", "conversation", convID, "err", err)
		}
	}()
}

// walkHint is the size of a walk's first read in a conversation: a little more than
// its last walk took (one read, as a rule), else firstPage.
func (s *Service) walkHint(convID string) int {
	s.hints.mu.Lock()
	defer s.hints.mu.Unlock()
	if n, ok := s.hints.by[convID]; ok {
		return min(max(n+8, 16), walkPage)
	}
	return firstPage
}

func (s *Service) setWalkHint(convID string, n int) {
	s.hints.mu.Lock()
	defer s.hints.mu.Unlock()
	if s.hints.by == nil || len(s.hints.by) >= 1024 {
		s.hints.by = map[string]int{}
	}
	s.hints.by[convID] = n
}

// walkHints are the lengths of the last walks, by conversation.
type walkHints struct {
	mu sync.Mutex
	by map[string]int
}

// systemPrompt is the system prompt the next turn sends: the character's, the
// memory and the actions' prompts (runtime.Agent.SystemPrompt), else the character's.
func (s *Service) systemPrompt() string {
	set := s.agent.Settings()
	if a, ok := s.agent.(interface{ SystemPrompt(runtime.Settings) string }); ok {
		return a.SystemPrompt(set)
	}
	return set.Character.SystemPrompt()
}
