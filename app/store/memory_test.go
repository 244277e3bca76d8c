package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

func TestMemoryVersions(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, err := s.LatestMemory(ctx, "Wisp"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a memory never written: %v", err)
	}
	add := func(text string, base int) (MemoryVersion, error) {
		return s.AddMemory(ctx, MemoryVersion{Character: "Wisp", Text: text, Source: MemoryByUser, CreatedAt: at(int64(len(text) + 1))}, base, 3)
	}
	if v, err := add("a", 0); err != nil || v.Version != 1 {
		t.Fatalf("first: %+v %v", v, err)
	}
	if _, err := add("stale", 0); !errors.Is(err, ErrStale) {
		t.Fatalf("a change from a stale base: %v", err)
	}
	for _, text := range []string{"bb", "ccc", "dddd"} {
		if _, err := add(text, -1); err != nil {
			t.Fatal(err)
		}
	}
	zero := 0
	undo, err := s.AddMemory(ctx, MemoryVersion{Character: "Wisp", Text: "", Source: MemoryByUndo, Restores: &zero, CreatedAt: at(9)}, 4, 3)
	if err != nil || undo.Version != 5 {
		t.Fatalf("undo: %+v %v", undo, err)
	}
	// Another character's memory is its own.
	if _, err := s.AddMemory(ctx, MemoryVersion{Character: "Ada", Text: "x", Source: MemoryByAgent, CreatedAt: at(1)}, 0, 3); err != nil {
		t.Fatal(err)
	}
	hist, err := s.MemoryHistory(ctx, "Wisp", 100)
	if err != nil {
		t.Fatal(err)
	}
	var versions []int
	for _, v := range hist {
		versions = append(versions, v.Version)
	}
	if !slices.Equal(versions, []int{5, 4, 3}) || hist[0].Restores == nil || *hist[0].Restores != 0 || hist[1].Restores != nil {
		t.Fatalf("kept %v (%+v)", versions, hist)
	}
	if _, err := s.MemoryAt(ctx, "Wisp", 2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a dropped version: %v", err)
	}
	if v, err := s.MemoryAt(ctx, "Wisp", 4); err != nil || v.Text != "dddd" {
		t.Fatalf("version 4: %+v %v", v, err)
	}
	if _, err := s.AddMemory(ctx, MemoryVersion{Character: "Wisp", Source: "model", CreatedAt: at(1)}, -1, 3); err == nil {
		t.Fatal("an unknown source was saved")
	}
}

func TestRecallLeavesOutTheRun(t *testing.T) {
	ctx := context.Background()
	s := searchStore(t, map[string]string{"m1": "the dentist is Dr Okafor", "m2": "a dentist appointment", "m3": "who is my dentist", "m4": "nothing here"})
	if err := s.CreateRun(ctx, Run{ID: "r", ConversationID: "b", UserMessageID: "m3", Status: "active", StartedAt: at(1)}); err != nil {
		t.Fatal(err)
	}
	mustAddMessage(t, s, Message{ID: "m5", ConversationID: "b", Role: "assistant", Text: "your dentist", RunID: "r", CreatedAt: at(200)})
	ids := func(run string) []string {
		hits, err := s.RecallMessages(ctx, RecallExpr("Okafor dentist", 32), run, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.MessageID)
		}
		slices.Sort(out)
		return out
	}
	if got := ids(""); !slices.Equal(got, []string{"m1", "m2", "m3", "m5"}) {
		t.Fatalf("every match: %v", got)
	}
	if got := ids("r"); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Fatalf("without run r: %v", got)
	}
}

func TestRecallExpr(t *testing.T) {
	for in, want := range map[string]string{
		"dentist Okafor":      `"dentist" OR "Okafor"`,
		`a"b OR NEAR(x) -- *`: `"a""b" OR "OR" OR "NEAR(x)"`,
		"   ":                 "",
		"one two three four":  `"one" OR "two" OR "three"`,
		"bad \xff byte":       `"bad" OR "byte"`,
		"nul\x00split":        `"nul" OR "split"`,
	} {
		if got := RecallExpr(in, 3); got != want {
			t.Errorf("RecallExpr(%q) = %s, want %s", in, got, want)
		}
	}
}

func FuzzRecallExpr(f *testing.F) {
	for _, seed := range []string{"dentist", `"`, "NEAR(a b)", "a* ^b", "\x00", "日本 語", "x OR y AND NOT z"} {
		f.Add(seed)
	}
	s, err := Open(context.Background(), filepath.Join(f.TempDir(), "wisp.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateConversation(ctx, Conversation{ID: "c", Title: "t", RoomID: "r", CreatedAt: at(1)}); err != nil {
		f.Fatal(err)
	}
	if _, err := s.AddMessage(ctx, Message{ID: "m", ConversationID: "c", Role: "user", Text: "dentist NEAR Okafor", CreatedAt: at(2)}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		expr := RecallExpr(in, 32)
		if expr == "" {
			return
		}
		if _, err := s.RecallMessages(ctx, expr, "", 5); err != nil {
			t.Fatalf("RecallExpr(%q) = %s: %v", in, expr, err)
		}
	})
}
