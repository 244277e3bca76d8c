package app

import (
	"context"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/ws"
)

// journal persists the hub's envelopes in the store.
type journal struct{ s *store.Store }

func (j journal) Save(ctx context.Context, batch []ws.Record, keep int) error {
	rows := make([]store.StreamEvent, len(batch))
	for i, r := range batch {
		rows[i] = store.StreamEvent{ID: r.ID, Type: r.Type, TS: r.TS, Data: r.Data}
	}
	return j.s.AppendStreamEvents(ctx, rows, keep)
}

func (j journal) Load(ctx context.Context, n int) ([]ws.Record, error) {
	rows, err := j.s.RecentStreamEvents(ctx, n)
	if err != nil {
		return nil, err
	}
	out := make([]ws.Record, len(rows))
	for i, r := range rows {
		out[i] = ws.Record{ID: r.ID, Type: r.Type, TS: r.TS, Data: r.Data}
	}
	return out, nil
}
