package chat

import (
	"context"
	"strings"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// Complete answers a stateless request (the Anthropic-compatible API): the caller
// brings the whole conversation and nothing is stored. onText receives the reply as
// append-only pieces: model text as it streams, and each action's status line once the
// action is over (a callback that replaced another cannot be expressed by appending).
// maxTokens, when above 0, bounds each model call. msg is the new user message: its
// images (msg.Images, decoded and bounded by app/compat) are the chat helper's to fit
// and send (issue 31); until then only its text is answered.
func (s *Service) Complete(ctx context.Context, history []llm.Message, msg llm.Message, maxTokens int, onText func(string)) (runtime.Result, error) {
	if ok, why := s.opts.CanRespond(); !ok {
		return runtime.Result{}, fault.Unavailable.Errorf("%s", why)
	}
	var (
		sent    string // what onText was given so far
		changed bool   // an action touched the reply since: sent may no longer be a prefix
	)
	flush := func(full string) {
		if changed && !strings.HasPrefix(full, sent) {
			s.log.Warn("reply changed behind what was streamed; skipping", "sent", len(sent))
			return
		}
		if len(full) > len(sent) {
			onText(full[len(sent):])
			sent, changed = full, false
		}
	}
	model := s.model()
	res, err := s.agent.Turn(ctx, runtime.Input{History: history, Text: msg.Text, MaxTokens: maxTokens}, func(ev runtime.Event, at runtime.Fold) {
		switch ev.Type {
		case runtime.EventCallback, runtime.EventToolStart:
			changed = true // the action's status is sent once the action is over
		case runtime.EventTextDelta, runtime.EventToolEnd:
			flush(at.Full)
		}
	})
	s.recordUsage(ctx, UsageEntry{Kind: UsageV1, Model: model, Usage: res.Usage})
	return res, err
}
