package app

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/instance"
)

// refused starts a second App on dir and expects the refusal naming the one at url.
func refused(t *testing.T, opts Options, url string) {
	t.Helper()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Start(context.Background())
	var held *instance.HeldError
	want := fmt.Sprintf("another Wisp is already running on this state folder (%s, pid %d)", url, os.Getpid())
	if !errors.As(err, &held) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("a second Wisp on the folder: %v, want %q", err, want)
	}
	if err := b.Stop(); err != nil {
		t.Fatalf("stopping the refused one: %v", err)
	}
}

// One Wisp per state folder: a second is refused before it opens anything, naming
// the first's URL (the one it moved to on a restart too), and does not disturb it;
// once the first has stopped, another starts.
func TestOneAppPerStateFolder(t *testing.T) {
	dir := t.TempDir()
	p1, p2 := freePort(t), freePort(t)
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(fmt.Sprintf(`{"server":{"port":%d}}`, p1)), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, nil)
	opts.Port = -1 // the file decides
	a := &termApp{App: startApp(t, opts), t: t}
	defer a.Stop()
	refused(t, opts, fmt.Sprintf("http://127.0.0.1:%d", p1))
	if st := a.do("GET", "/api/status", nil, nil); st.status != http.StatusOK || st.body["state"] != "running" {
		t.Fatalf("the first after a refused second: %d %v", st.status, st.body)
	}

	handEdit(t, a.App, fmt.Sprintf(`{"server":{"port":%d}}`, p2))
	a.statusWhere("the port reason", reasonsAre(fmt.Sprintf("Server port changed: %d → %d", p1, p2)))
	if res := a.do("POST", "/api/agent/restart", nil, nil); res.status != http.StatusOK {
		t.Fatalf("restart: %d %v", res.status, res.body)
	}
	refused(t, opts, fmt.Sprintf("http://127.0.0.1:%d", p2))

	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	c := startApp(t, opts)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

// A second `wisp serve` refused on the folder never touches the first's kept token,
// even one it would replace (readable by others): it reads it only once it holds
// the lock.
func TestRefusedServeLeavesTheTokenAlone(t *testing.T) {
	dir := t.TempDir()
	first, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer first.Stop()
	path := filepath.Join(dir, tokenFileName)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	second, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var held *instance.HeldError
	if err := second.Start(context.Background()); !errors.As(err, &held) {
		t.Fatalf("second serve on the folder: %v", err)
	}
	second.Stop()
	after, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	if string(after) != string(before) || info.Mode().Perm() != 0o644 {
		t.Fatalf("the refused Wisp rewrote the token file (mode %#o)", info.Mode().Perm())
	}
}
