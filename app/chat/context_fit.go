package chat

import (
	"context"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime/llm"
)

// prepare assembles a turn's history for a question whose parent is parentID: the
// newest summary on the branch and the messages after it, summarised first when they
// pass summarizeAt% of the budget (force: summarise now, keeping less, after the
// provider refused the context). It returns the history and the turn's Fitter.
func (s *Service) prepare(ctx context.Context, runID, convID, parentID string, question store.Message, emit summaryEmit) ([]llm.Message, *turnFit, error) {
	f := &turnFit{s: s, runID: runID, convID: convID, parentID: parentID, question: question.Text, questionMsg: question, emit: emit}
	by, err := s.store.MessageAttachments(ctx, []string{question.ID})
	if err != nil {
		return nil, nil, err
	}
	f.questionAtts = by[question.ID]
	hist, err := f.assemble(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	f.histLen = len(hist)
	return hist, f, nil
}

// turnFit fits one turn's model calls into the window (runtime.Fitter).
type turnFit struct {
	s                                 *Service
	runID, convID, parentID, question string
	emit                              summaryEmit
	b                                 budget
	histLen                           int  // the request's first histLen messages are the history
	histTokens                        int  // and their tokens, as the walk counted them
	retried                           bool // the provider refused once already
	summarised                        bool
	shortened                         bool // a message of the history was shortened: count it all

	questionMsg  store.Message
	questionAtts []store.Attachment
	// q is the question as the model reads it: its text with its attachments'
	// lines, and its images.
	q      llm.Message
	vision llm.Vision
	docs   map[string]*fileDoc  // the documents read this turn, by attachment id
	imgs   map[string]llm.Image // the images fitted this turn, by attachment id
	// notices are notification rows the run shows (a model that cannot see images).
	notices []string
}

// assemble walks the branch and summarises when it must, then adds what the
// attachments of the messages kept and of the question send (context_files.go).
func (f *turnFit) assemble(ctx context.Context, force bool) ([]llm.Message, error) {
	s := f.s
	b := s.budgetNow(ctx)
	f.b = b
	system := s.systemPrompt()
	q := b.count(f.question)
	if b.known() && b.fixed(system)+q > b.budget {
		return nil, questionTooLong(b.fixed(system)+q, b.budget)
	}
	w, err := s.walk(ctx, f.convID, f.parentID, b, walkFactor*b.budget)
	if err != nil {
		return nil, err
	}
	if withImages(f.questionAtts) || anyWithImages(w.msgs) {
		f.vision = s.vision(ctx) // (the first time, it may wait for the provider to say)
	}
	asked := counted{msg: f.questionMsg, atts: f.questionAtts}
	used := w.used(b, system)
	files := f.estimateFiles(ctx, b, append(w.msgs[:len(w.msgs):len(w.msgs)], asked))
	if (force || used+q+files > b.threshold() || !w.whole) && len(w.msgs) > 0 {
		keepShare := 30
		if force {
			keepShare = 15
		}
		keep := len(w.msgs)
		for n := 0; keep > 0 && n+w.msgs[keep-1].cost() <= b.budget*keepShare/100; keep-- {
			n += w.msgs[keep-1].cost()
		}
		if keep > 0 {
			sum, err := s.summarise(ctx, f.runID, f.emit, b, w.prev, w.msgs[:keep])
			switch {
			case err == nil:
				f.summarised = true
				w.prev, w.msgs, w.total, w.whole = sum, w.msgs[keep:], 0, true
				for _, c := range w.msgs {
					w.total += c.tokens
				}
				used = w.used(b, system)
			case ctx.Err() != nil:
				return nil, err
			default:
				s.log.Warn("summary failed", "conversation", f.convID, "err", err)
			}
		}
	}
	// The lines naming the history's attachments are known once files has run:
	// when they push the turn over, files runs again with that much less room.
	var tf turnFiles
	var qAll, histFiles int
	for pass, room := 0, b.budget-used-q; pass < 3; pass++ {
		if tf, err = f.files(ctx, b, append(w.msgs[:len(w.msgs):len(w.msgs)], asked), room); err != nil {
			return nil, err
		}
		histFiles = 0
		for _, c := range w.msgs {
			histFiles += tf.tokens[c.msg.ID]
		}
		f.q = llm.Message{Role: llm.RoleUser, Text: tf.text(asked.msg.ID, f.question), Images: tf.images[asked.msg.ID]}
		qAll = b.count(f.q.Text) + imageCost(f.q)
		over := used + histFiles + qAll - b.budget
		if over <= 0 {
			break
		}
		room -= over
	}
	used += histFiles
	f.notices = nil
	if len(tf.notSeen) > 0 {
		f.notices = append(f.notices, visionNotice(b.model, tf.notSeen))
	}
	if (used+qAll > b.budget && (b.known() || w.total > 0)) || !w.whole {
		return nil, errNoFit{tokens: used + qAll, window: b.window, summarised: f.summarised}
	}
	f.histTokens = used - b.fixed(system)
	return w.history(tf), nil
}

// Fit implements runtime.Fitter: the oldest tool results are shortened first, and a
// refusal by the provider summarises (keeping less) and tries once more.
func (f *turnFit) Fit(ctx context.Context, req *llm.Request, refused error) error {
	if refused != nil {
		if !contextTooLong(refused) {
			return refused
		}
		if f.retried {
			return errNoFit{tokens: f.size(req), window: f.b.window, summarised: true}
		}
		f.retried = true
		f.s.bump(f.b.model, f.b.counter.Name())
		hist, err := f.assemble(ctx, true)
		if err != nil {
			return err
		}
		rest := append([]llm.Message(nil), req.Messages[min(f.histLen, len(req.Messages)):]...)
		if len(rest) > 0 && rest[0].Role == llm.RoleUser {
			rest[0] = f.q // the question, as assembled again
		}
		req.Messages = append(hist, rest...)
		f.histLen = len(hist)
	}
	limit := f.b.window - req.MaxTokens - f.b.margin
	if req.MaxTokens <= 0 {
		limit = f.b.window - f.b.maxTokens - f.b.margin
	}
	n := f.size(req)
	for i := range req.Messages {
		if n <= limit {
			break
		}
		m := &req.Messages[i]
		if m.Role != llm.RoleTool || len(m.Text) <= 1500 {
			continue
		}
		before := f.b.count(m.Text)
		m.Text = shorten(m.Text, 1200, toolName(req.Messages[:i], m.ToolCallID))
		n -= before - f.b.count(m.Text)
		if i < f.histLen {
			f.shortened = true
		}
	}
	if n > limit && f.b.known() {
		return errNoFit{tokens: n, window: f.b.window, summarised: f.summarised}
	}
	return nil // (a window Wisp only guessed: the provider says whether it fits)
}

// Sent implements runtime.Fitter: the provider's prompt tokens calibrate our counts.
func (f *turnFit) Sent(req *llm.Request, usage llm.Usage) {
	for _, m := range req.Messages {
		if len(m.Images) > 0 {
			return // images are estimated, not counted: they would skew what text is learnt
		}
	}
	f.s.calibrate(f.b.model, f.b.counter.Name(), int(float64(f.size(req))/f.b.calib), usage.InputTokens)
}

// size is the calibrated token count of a request: the history's as the walk
// counted it, the rest counted now (the system prompt and tools are remembered).
func (f *turnFit) size(req *llm.Request) int {
	n := f.b.fixed(req.System) + f.b.toolTokens(req.Tools)
	from := 0
	if f.histLen <= len(req.Messages) && !f.shortened {
		n += f.histTokens
		from = f.histLen
	}
	if from == 0 {
		for _, m := range req.Messages[:min(f.histLen, len(req.Messages))] {
			n += imageCost(m)
		}
	}
	for _, m := range req.Messages[from:] {
		n += f.b.count(m.Text) + imageCost(m)
		for _, c := range m.ToolCalls {
			n += f.b.count(string(c.Arguments))
		}
	}
	return n
}

// toolName is the name of the call id answered among earlier messages.
func toolName(msgs []llm.Message, id string) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == id {
				return c.Name
			}
		}
	}
	return "the action"
}
