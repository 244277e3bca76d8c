package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// maxLimit is the largest terminal.maxConcurrent Wisp accepts (app/config/validate.go).
const maxLimit = 16

// limitAt is the terminal.maxConcurrent the i-th save writes: 1 to maxLimit in
// turn, starting after running and never running itself, so that every save
// differs from the running value (a reason) and from the save before it (a new
// reason, hence a new frame). running must be 1 to maxLimit.
func limitAt(i, running int) int {
	v := (running-1+i)%(maxLimit-1) + 1 // 1..maxLimit-1, the first one being running
	if v >= running {
		v++ // skip running
	}
	return v
}

// withLimit is the config file base with terminal.maxConcurrent set to limit,
// as an editor would write it (indented, other keys kept).
func withLimit(base map[string]any, limit int) ([]byte, error) {
	doc := make(map[string]any, len(base))
	for k, v := range base {
		doc[k] = v
	}
	term := map[string]any{}
	if old, ok := base["terminal"].(map[string]any); ok {
		for k, v := range old {
			term[k] = v
		}
	}
	term["maxConcurrent"] = limit
	doc["terminal"] = term
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return append(data, '\n'), nil
}

// saveAtomic saves data to path as editors do: a temporary file in the same
// folder, written, fsynced and closed, then renamed over path. It returns the
// moments just before the rename was called and when it had returned: every
// sample's clock starts at one of them.
func saveAtomic(path string, data []byte) (called, returned time.Time, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".edit-*")
	if err != nil {
		return called, returned, err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return called, returned, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return called, returned, err
	}
	if err := tmp.Close(); err != nil {
		return called, returned, err
	}
	called = time.Now()
	if err := os.Rename(tmp.Name(), path); err != nil {
		return called, returned, err
	}
	return called, time.Now(), nil
}
