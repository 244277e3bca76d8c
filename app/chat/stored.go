package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/reply"
)

// storedSource replays a finished run from the log on disk.
type storedSource struct {
	items []Item
}

func (s *Service) storedRun(ctx context.Context, runID string) (*storedSource, error) {
	if _, err := s.store.Run(ctx, runID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, errRunNotFound
		}
		return nil, err
	}
	items, _, err := s.loadItems(ctx, runID)
	if err != nil {
		return nil, err
	}
	return &storedSource{items: items}, nil
}

// loadItems reads a run's log from disk and folds it (through runtime.Apply, as the
// agent did live) so every item carries the reply after it; it returns the fold too.
func (s *Service) loadItems(ctx context.Context, runID string) ([]Item, *reply.Reply, error) {
	rows, err := s.store.RunEvents(ctx, runID, 0, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("load run events: %w", err)
	}
	rep := &reply.Reply{}
	items := make([]Item, 0, len(rows))
	for _, r := range rows {
		ev, err := runtime.DecodeEvent(r.Type, r.Data)
		if err != nil {
			s.log.Warn("skip undecodable run event", "run", runID, "seq", r.Seq, "err", err)
			continue
		}
		at := runtime.Apply(rep, ev)
		if out, ok := ev.Data.(runtime.Output); ok && out.History == nil {
			out.History = rep.History() // logged before outputs carried it
			ev.Data = out
		}
		items = append(items, Item{Seq: r.Seq, Event: ev, Time: r.Time, At: at, Cuts: cutsOf(r.Data)})
	}
	return items, rep, nil
}

func (src *storedSource) next(_ context.Context, i int) ([]Item, bool, error) {
	if i < len(src.items) {
		return src.items[i:], false, nil
	}
	return nil, true, nil
}
