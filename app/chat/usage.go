package chat

import (
	"context"

	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime/llm"
)

// The kinds of model call groups chat records (UsageEntry.Kind).
const (
	UsageChat    = "chat"    // a run's reply
	UsageSummary = "summary" // a summary of a branch's older turns
	UsageTitle   = "title"   // a conversation's title
	UsageV1      = "v1"      // a stateless /v1 request (Complete)
)

// UsageEntry is one model call group chat made: what it was for ("" when nothing of
// it), its kind, the model asked and the usage its provider reported.
type UsageEntry struct {
	ConversationID, RunID, MessageID, Kind, Model string
	Usage                                         llm.Usage
}

// recordUsage hands a model call group's usage to Options.RecordUsage, when the
// provider reported any. The recorder never fails a reply (it logs); a stopped run
// still spent its tokens, so ctx's cancellation does not reach it.
func (s *Service) recordUsage(ctx context.Context, e UsageEntry) {
	if s.opts.RecordUsage == nil || e.Usage == (llm.Usage{}) {
		return
	}
	s.opts.RecordUsage(context.WithoutCancel(ctx), e)
}

// recordRunUsage records what a run spent, whatever its end, under its reply.
func (s *Service) recordRunUsage(ctx context.Context, run *Run, model string, u llm.Usage) {
	s.recordUsage(ctx, UsageEntry{ConversationID: run.ConversationID, RunID: run.ID, MessageID: run.ReplyMessageID,
		Kind: UsageChat, Model: model, Usage: u})
}

// model is the model the next call will ask for.
func (s *Service) model() string { return s.agent.Settings().Model }

// addUsage fills in the usage recorded for the page's assistant replies: one query
// for the page.
func (s *Service) addUsage(ctx context.Context, msgs []wire.Message) error {
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == "assistant" {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	found, err := s.store.MessagesUsage(ctx, ids)
	if err != nil {
		return err
	}
	for i := range msgs {
		if u, ok := found[msgs[i].ID]; ok {
			msgs[i].Usage = view.MessageUsage(u)
		}
	}
	return nil
}
