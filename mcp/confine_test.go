//go:build linux

package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/confine"
)

// A stdio server starts confined: a tool that reads a file in a denied folder is
// refused, one beside it is not. Run through Confine, it is the same program.
func TestStdioServerIsConfined(t *testing.T) {
	c := confine.New(confine.Options{Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(c.Close)
	if level, reason := c.Status(); level == confine.None {
		t.Fatalf("no confinement on this kernel: %s", reason)
	}
	root := t.TempDir()
	denied, open := filepath.Join(root, "state"), filepath.Join(root, "notes.txt")
	if err := os.Mkdir(denied, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(denied, "api-token"), open} {
		if err := os.WriteFile(f, []byte("content of "+filepath.Base(f)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c.Set(confine.Policy{Deny: []string{denied}})
	w := newWatched(t, Options{Confine: c.Start})
	w.Apply(map[string]Spec{"self": selfServer(t, map[string]string{"WISP_MCP_TEST_SERVER": "read"})})
	w.until(t, "self", running)
	read := func(path string) Result {
		t.Helper()
		args, _ := json.Marshal(readArgs{Path: path})
		res, err := w.Call(context.Background(), "self", "read", args, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := read(filepath.Join(denied, "api-token")); !res.IsError || !strings.Contains(res.Text, "permission denied") {
		t.Errorf("reading the denied folder: %+v", res)
	}
	if res := read(open); res.IsError || res.Text != "content of notes.txt" {
		t.Errorf("reading beside it: %+v", res)
	}
}
