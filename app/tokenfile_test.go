package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

// Whatever is at api-token instead of a regular file is refused at once, naming the
// path and what it is: Wisp does not start without its token, and does not replace
// what it did not make. A huge regular file is not a token and is replaced.
func TestTokenFileRefusesOddFiles(t *testing.T) {
	const fix = " (fix or delete the file, or set WISP_API_TOKEN)"
	cases := []struct {
		odd  rt.Odd
		want string // after "read the API token: <path>"; "" for a new token
	}{
		{rt.FIFO, " is a named pipe, not a regular file" + fix},
		{rt.Folder, " is a folder, not a regular file" + fix},
		{rt.Socket, " is a socket, not a regular file" + fix},
		{rt.DevZero, " is a symbolic link, not a regular file" + fix},
		{rt.Huge, ""},
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range cases {
		t.Run(tc.odd.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tokenFileName)
			tc.odd.Make(t, path)
			var token string
			err := rt.ReturnsSoon(t, "reading "+path, func() (err error) {
				token, err = loadOrMakeToken(path, log)
				return err
			})
			if tc.want == "" {
				data, rerr := os.ReadFile(path)
				if err != nil || !validToken(token) || string(data) != token+"\n" {
					t.Fatalf("token %q, %v; the file holds %d bytes (%v), want a new token kept", token, err, len(data), rerr)
				}
				return
			}
			if want := "read the API token: " + path + tc.want; err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant   %s", err, want)
			}
		})
	}
}

// A FIFO at api-token makes `wisp serve` fail to start, at once and saying why,
// instead of hanging before it listens.
func TestServeStartRefusesAFIFOToken(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, tokenFileName)
	rt.FIFO.Make(t, path)
	a, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = rt.ReturnsSoon(t, "Start", func() error { return a.Start(context.Background()) })
	if want := "read the API token: " + path + " is a named pipe"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("start with a FIFO at api-token: %v, want %q", err, want)
	}
	if err := a.Stop(); err != nil {
		t.Fatalf("stopping after the refused start: %v", err)
	}
}

// A start removes the temporary files that saves killed before their rename left in
// the state folder (the kept token's, the config file's), and keeps the rest.
func TestStartRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	stale := []string{".api-token.tmp-123", ".wisp.json.tmp-456"}
	kept := []string{".api-token.tmp-dir", "api-token.tmp-1", ".wisp.db.tmp-1"}
	for _, name := range append(slices.Clone(stale), kept[1:]...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, kept[0]), 0o700); err != nil {
		t.Fatal(err)
	}
	a, err := newServeApp(t, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	for _, name := range stale {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", name, err)
		}
	}
	for _, name := range kept {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}
