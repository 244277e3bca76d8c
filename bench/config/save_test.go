package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestLimitAt(t *testing.T) {
	for running := 1; running <= maxLimit; running++ {
		prev := running
		seen := map[int]bool{}
		for i := range 3 * maxLimit {
			v := limitAt(i, running)
			switch {
			case v < 1 || v > maxLimit:
				t.Fatalf("limitAt(%d, %d) = %d, out of 1..%d", i, running, v, maxLimit)
			case v == running:
				t.Fatalf("limitAt(%d, %d) = the running value: no reason, no frame", i, running)
			case v == prev:
				t.Fatalf("limitAt(%d, %d) = %d again: the reasons would not change", i, running, v)
			}
			seen[v], prev = true, v
		}
		if len(seen) != maxLimit-1 {
			t.Errorf("running %d: %d values used, want every one but the running", running, len(seen))
		}
	}
	if got := limitAt(0, 2); got != 3 {
		t.Errorf("limitAt(0, 2) = %d, want 3 (the first after the running value)", got)
	}
}

func TestWithLimitAndSave(t *testing.T) {
	base := map[string]any{"terminal": map[string]any{"maxConcurrent": 2.0, "maxDurationMs": 300000.0}, "x": "kept"}
	data, err := withLimit(base, 7)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wisp.json")
	called, returned, err := saveAtomic(path, data)
	if err != nil || returned.Before(called) {
		t.Fatalf("saveAtomic = %v, %v, %v", called, returned, err)
	}
	var got struct {
		Terminal struct{ MaxConcurrent, MaxDurationMs int }
		X        string
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil || got.Terminal.MaxConcurrent != 7 || got.Terminal.MaxDurationMs != 300000 || got.X != "kept" {
		t.Errorf("saved %s (err %v)", b, err)
	}
	if base["terminal"].(map[string]any)["maxConcurrent"] != 2.0 {
		t.Error("withLimit changed its base")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d entries in the folder, want only the file", len(entries))
	}
}
