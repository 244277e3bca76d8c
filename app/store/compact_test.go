package store

import (
	"context"
	"encoding/json"
	"testing"
)

func TestCompactRun(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateRun(t, s, Run{ID: "a", StartedAt: at(1)})
	if err := s.AppendRunEvents(ctx, tokenEvents("a", 1, 10)); err != nil {
		t.Fatal(err)
	}
	merged := []Merged{{From: 2, Row: RunEvent{RunID: "a", Seq: 5, Type: "token", Data: json.RawMessage(`{"text":"2345"}`), Time: at(5)}}}
	if err := s.CompactRun(ctx, "a", merged); err == nil {
		t.Fatal("a live run was compacted")
	}
	if ids, err := s.RunsToCompact(ctx, 0); err != nil || len(ids) != 0 {
		t.Fatalf("runs to compact while live: %v %v", ids, err)
	}
	if err := s.EndRun(ctx, "a", RunEnded, "", at(20), nil); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.RunsToCompact(ctx, 0); err != nil || len(ids) != 1 || ids[0] != "a" {
		t.Fatalf("runs to compact once ended: %v %v", ids, err)
	}
	bad := []Merged{{From: 6, Row: RunEvent{RunID: "a", Seq: 5, Type: "token", Data: json.RawMessage(`{}`), Time: at(5)}}}
	if err := s.CompactRun(ctx, "a", bad); err == nil {
		t.Fatal("a backwards stretch was accepted")
	}
	if err := s.CompactRun(ctx, "a", merged); err != nil {
		t.Fatal(err)
	}
	rows, err := s.RunEvents(ctx, "a", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, r := range rows {
		seqs = append(seqs, r.Seq)
	}
	if want := []int64{1, 5, 6, 7, 8, 9, 10}; len(seqs) != len(want) || seqs[1] != 5 || string(rows[1].Data) != `{"text":"2345"}` {
		t.Fatalf("rows after compaction: %v", seqs)
	}
	if r, err := s.Run(ctx, "a"); err != nil || !r.Compacted {
		t.Fatalf("run after compaction: %+v %v", r, err)
	}
	if ids, _ := s.RunsToCompact(ctx, 0); len(ids) != 0 {
		t.Fatalf("still to compact: %v", ids)
	}
	if err := s.CompactRun(ctx, "nope", nil); err == nil {
		t.Fatal("an unknown run was compacted")
	}
}
