package chat

import (
	"context"

	"github.com/wispapp/wisp/app/wire"
)

// Snapshot is a conversation as a client renders it after a reload or a
// stream_resync (seed 001): the newest MessageLimit messages of the branch shown, the run being written (if any), the number
// of the last event of that run the messages reflect, read together with its text
// ("sequence last"), and the stream's status. A client resumes the run's stream after
// StreamSequence and gets exactly what it lacks: no gap, no duplicate.
func (s *Service) Snapshot(ctx context.Context, convID string) (wire.Snapshot, error) {
	list, run, seq, err := s.page(ctx, convID, Page{Limit: MessageLimit})
	if err != nil {
		return wire.Snapshot{}, err
	}
	msgs := list.Messages
	snap := wire.Snapshot{Messages: msgs, StreamSequence: seq, Status: "ended"}
	if run != nil {
		snap.Status = StatusActive
		if run.isPaused() {
			snap.Status = StatusPaused
		}
		snap.ActiveRun = &wire.RunInfo{ID: run.ID, ConversationID: run.ConversationID, UserMessageID: run.UserMessageID,
			Status: snap.Status, StartedAt: run.StartedAt.UnixMilli()}
		return snap, nil
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == "assistant" && m.RunID != "" {
			if m.Status == StatusFailed {
				snap.Status = "failed"
			}
			break
		}
	}
	return snap, nil
}
