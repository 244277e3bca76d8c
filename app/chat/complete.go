package chat

import (
	"context"
	"fmt"
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
// images (msg.Images, decoded and bounded by app/compat), like the history's, are
// fitted to the provider's limits (fitImages) and sent with it.
func (s *Service) Complete(ctx context.Context, history []llm.Message, msg llm.Message, maxTokens int, onText func(string)) (runtime.Result, error) {
	if ok, why := s.opts.CanRespond(); !ok {
		return runtime.Result{}, fault.Unavailable.Errorf("%s", why)
	}
	fitted, err := s.fitImages(ctx, append(history[:len(history):len(history)], msg))
	if err != nil {
		return runtime.Result{}, err
	}
	history, msg = fitted[:len(fitted)-1], fitted[len(fitted)-1]
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
	res, err := s.agent.Turn(ctx, runtime.Input{History: history, Text: msg.Text, Images: msg.Images, MaxTokens: maxTokens}, func(ev runtime.Event, at runtime.Fold) {
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

// fitImages fits the images of a stateless conversation to the provider's limits
// (Attachments.FitImage checks their type and pixels): refused when Wisp has no
// attachment service; named in the text instead when the model cannot see images.
func (s *Service) fitImages(ctx context.Context, history []llm.Message) ([]llm.Message, error) {
	has := false
	for _, m := range history {
		has = has || len(m.Images) > 0
	}
	if !has {
		return history, nil
	}
	if s.opts.Attachments == nil {
		return nil, fault.Invalid.Errorf("images are not available: this Wisp cannot send images to the model")
	}
	blind := s.vision(ctx) == llm.VisionNo
	lim := s.imageLimits()
	out := make([]llm.Message, len(history))
	for i, m := range history {
		out[i] = m
		if len(m.Images) == 0 {
			continue
		}
		out[i].Images = nil
		if blind {
			note := fmt.Sprintf("[%d image(s) not sent: %s cannot see images]", len(m.Images), s.model())
			out[i].Text = strings.TrimSpace(m.Text + "\n\n" + note)
			continue
		}
		for _, img := range m.Images {
			fitted, err := s.opts.Attachments.FitImage(ctx, img, lim)
			if err != nil {
				return nil, err
			}
			out[i].Images = append(out[i].Images, fitted)
		}
	}
	return out, nil
}
