package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// tokenEvents makes n events of run numbered from first.
func tokenEvents(run string, first int64, n int) []RunEvent {
	evs := make([]RunEvent, n)
	for i := range evs {
		seq := first + int64(i)
		evs[i] = RunEvent{RunID: run, Seq: seq, Type: "token",
			Data: json.RawMessage(fmt.Sprintf(`{"type":"token","text":"word %d ","fullText":"…"}`, seq)), Time: at(1000 + seq)}
	}
	return evs
}

func TestInsertRunEventsSQL(t *testing.T) {
	for _, n := range []int{1, 2, runEventChunk - 1, runEventChunk} {
		q := insertRunEventsSQL(n)
		want := "INSERT INTO run_events (run_id, seq, type, data, ts) VALUES (?, ?, ?, ?, ?)"
		for range n - 1 {
			want += ", (?, ?, ?, ?, ?)"
		}
		if q != want {
			t.Errorf("%d rows: %q", n, q)
		}
	}
}

func TestAppendRunEventsRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateRun(t, s, Run{ID: "a", StartedAt: at(1)})
	mustCreateRun(t, s, Run{ID: "b", StartedAt: at(1)})
	// Batches around the chunk size, of two runs interleaved.
	var wantA, wantB []RunEvent
	next := map[string]int64{"a": 1, "b": 1}
	for _, size := range []int{1, runEventChunk - 1, runEventChunk, runEventChunk + 1, 3*runEventChunk + 7} {
		var batch []RunEvent
		for i := range size {
			run := "a"
			if i%3 == 2 {
				run = "b"
			}
			e := tokenEvents(run, next[run], 1)[0]
			next[run]++
			batch = append(batch, e)
			if run == "a" {
				wantA = append(wantA, e)
			} else {
				wantB = append(wantB, e)
			}
		}
		if err := s.AppendRunEvents(ctx, batch); err != nil {
			t.Fatalf("batch of %d: %v", size, err)
		}
	}
	for run, want := range map[string][]RunEvent{"a": wantA, "b": wantB} {
		got, err := s.RunEvents(ctx, run, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %s: %d events back, want %d (first diff: %v)", run, len(got), len(want), firstDiff(got, want))
		}
	}
	if err := s.AppendRunEvents(ctx, nil); err != nil {
		t.Errorf("empty batch: %v", err)
	}
}

func firstDiff(got, want []RunEvent) string {
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("%d: %+v vs %+v", i, got[i], want[i])
		}
	}
	return "length"
}

func TestRunEventsAfterAndLimit(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateRun(t, s, Run{ID: "r", StartedAt: at(1)})
	mustCreateRun(t, s, Run{ID: "other", StartedAt: at(1)})
	// Stored out of order; read back in order.
	if err := s.AppendRunEvents(ctx, append(tokenEvents("r", 6, 5), append(tokenEvents("other", 1, 20), tokenEvents("r", 1, 5)...)...)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		after int64
		limit int
		want  []int64
	}{
		{0, 0, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{0, 3, []int64{1, 2, 3}},
		{4, 3, []int64{5, 6, 7}},
		{8, 10, []int64{9, 10}},
		{8, -1, []int64{9, 10}},
		{10, 0, []int64{}},
		{-5, 2, []int64{1, 2}},
	}
	for _, tt := range tests {
		got, err := s.RunEvents(ctx, "r", tt.after, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pluck(func(e RunEvent) int64 { return e.Seq }, got), tt.want) {
			t.Errorf("after %d limit %d: %v, want %v", tt.after, tt.limit, pluck(func(e RunEvent) int64 { return e.Seq }, got), tt.want)
		}
	}
	if got, err := s.RunEvents(ctx, "missing", 0, 0); err != nil || got == nil || len(got) != 0 {
		t.Errorf("unknown run: %v, %v; want an empty list", got, err)
	}
}

func TestAppendRunEventsAllOrNothing(t *testing.T) {
	bad := func(evs []RunEvent, i int, f func(*RunEvent)) []RunEvent { f(&evs[i]); return evs }
	tests := []struct {
		name     string
		batch    []RunEvent
		notFound bool
	}{
		{"a seq saved before", tokenEvents("r", 3, 5), false},
		{"a seq twice in the batch, in a later chunk", append(tokenEvents("r", 100, runEventChunk+5), tokenEvents("r", 150, 1)...), false},
		{"a seq twice in the remainder", append(tokenEvents("r", 100, 3), tokenEvents("r", 101, 1)...), false},
		{"an unknown run", append(tokenEvents("r", 100, 3), tokenEvents("missing", 1, 1)...), true},
		{"data that is not JSON", bad(tokenEvents("r", 100, 3), 2, func(e *RunEvent) { e.Data = json.RawMessage(`{"a":`) }), false},
		{"nil data", bad(tokenEvents("r", 100, 3), 0, func(e *RunEvent) { e.Data = nil }), false},
		{"no time", bad(tokenEvents("r", 100, 3), 1, func(e *RunEvent) { e.Time = time.Time{} }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			mustCreateRun(t, s, Run{ID: "r", StartedAt: at(1)})
			if err := s.AppendRunEvents(ctx, tokenEvents("r", 1, 5)); err != nil {
				t.Fatal(err)
			}
			err := s.AppendRunEvents(ctx, tt.batch)
			if err == nil || errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("err = %v, want an error (ErrNotFound: %v)", err, tt.notFound)
			}
			got, _ := s.RunEvents(ctx, "r", 0, 0)
			if want := []int64{1, 2, 3, 4, 5}; !reflect.DeepEqual(pluck(func(e RunEvent) int64 { return e.Seq }, got), want) {
				t.Fatalf("after the failed batch: %v, want %v", pluck(func(e RunEvent) int64 { return e.Seq }, got), want)
			}
		})
	}
}

// BenchmarkAppendRunEvents measures AppendRunEvents against a floor: the same rows
// inserted with a bare prepared INSERT in one transaction. ns/event is the number
// to compare.
func BenchmarkAppendRunEvents(b *testing.B) {
	for _, batch := range []int{1, 32, 256} {
		b.Run(fmt.Sprintf("store/batch=%d", batch), func(b *testing.B) {
			benchmarkAppend(b, batch, func(s *Store, evs []RunEvent) error {
				return s.AppendRunEvents(context.Background(), evs)
			})
		})
		b.Run(fmt.Sprintf("floor/batch=%d", batch), func(b *testing.B) {
			benchmarkAppend(b, batch, appendRunEventsFloor)
		})
	}
}

func appendRunEventsFloor(s *Store, evs []RunEvent) error {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO run_events (run_id, seq, type, data, ts) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, e := range evs {
		if _, err := stmt.ExecContext(ctx, e.RunID, e.Seq, e.Type, string(e.Data), e.Time.UnixMilli()); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func benchmarkAppend(b *testing.B, batch int, appendFn func(*Store, []RunEvent) error) {
	s, err := Open(context.Background(), b.TempDir()+"/bench.db")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateRun(context.Background(), Run{ID: "run-0123456789", StartedAt: at(1)}); err != nil {
		b.Fatal(err)
	}
	template := tokenEvents("run-0123456789", 0, batch)
	b.ReportAllocs()
	b.ResetTimer()
	seq := int64(1)
	for b.Loop() {
		for i := range template {
			template[i].Seq = seq
			seq++
		}
		if err := appendFn(s, template); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(seq-1), "ns/event")
}
