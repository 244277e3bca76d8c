package chat

import (
	"context"
	"errors"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// RunInfo returns a run's record.
func (s *Service) RunInfo(ctx context.Context, id string) (wire.RunInfo, error) {
	r, err := s.store.Run(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.RunInfo{}, errRunNotFound
	}
	if err != nil {
		return wire.RunInfo{}, err
	}
	info := wire.RunInfo{ID: r.ID, ConversationID: r.ConversationID, UserMessageID: r.UserMessageID,
		Status: wire.RunStatus(r.Status), Error: r.Error, StartedAt: r.StartedAt.UnixMilli()}
	if !r.EndedAt.IsZero() {
		info.EndedAt = r.EndedAt.UnixMilli()
	}
	return info, nil
}

// errStopped is why a run the user stopped ended.
var errStopped = errors.New("stopped by the user")

// CancelRun stops an active run; what it said so far is kept.
func (s *Service) CancelRun(ctx context.Context, id string) error {
	s.mu.Lock()
	run := s.byID[id]
	s.mu.Unlock()
	if run == nil {
		if _, err := s.RunInfo(ctx, id); err != nil {
			return err
		}
		return fault.Conflict.Errorf("the run has already ended")
	}
	if err := s.resumeAdopted(id, errStopped); err == nil {
		// Paused before a restart: it goes on with a stopped context, so its action
		// cancels what it waited for and the run ends interrupted.
		_, err := run.Wait(ctx)
		return err
	}
	run.Cancel(errStopped)
	_, err := run.Wait(ctx)
	return err
}

// RunState is the state a run's patches built so far: the fold of its log's
// state_patch events (runtime.StateOf), as of the last of them.
func (s *Service) RunState(ctx context.Context, id string) (wire.RunState, error) {
	s.mu.Lock()
	run := s.byID[id]
	s.mu.Unlock()
	var items []Item
	if run != nil {
		run.mu.Lock()
		items = run.items // appended to only: this prefix never changes
		run.mu.Unlock()
	} else {
		src, err := s.storedRun(ctx, id)
		if err != nil {
			return wire.RunState{}, err
		}
		items = src.items
	}
	var patches []runtime.Event
	var seq int64
	for _, it := range items {
		if it.Event.Type == runtime.EventStatePatch {
			patches = append(patches, it.Event)
			seq = it.Seq
		}
	}
	return wire.RunState{RunID: id, Seq: seq, State: runtime.StateOf(patches)}, nil
}
