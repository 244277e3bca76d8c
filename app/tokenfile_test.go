package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
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
