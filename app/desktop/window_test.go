package desktop

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/instance"
)

// fakeWindow records what the handlers ask of the Wails runtime.
type fakeWindow struct{ calls []string }

func (f *fakeWindow) WindowShow(ctx context.Context) { f.calls = append(f.calls, "show "+ctxName(ctx)) }
func (f *fakeWindow) WindowUnminimise(ctx context.Context) {
	f.calls = append(f.calls, "unminimise "+ctxName(ctx))
}

type ctxKey struct{}

func ctxName(ctx context.Context) string { s, _ := ctx.Value(ctxKey{}).(string); return s }

// A second launch brings the window forward (shown, then restored and raised) with
// the Wails context of the window; one that comes before the window has started asks
// nothing of the runtime.
func TestSecondLaunchShowsTheWindow(t *testing.T) {
	rt := &fakeWindow{}
	w := &window{rt: rt, log: slog.New(slog.DiscardHandler)}
	w.secondLaunch([]string{"--verbose"})
	if len(rt.calls) != 0 {
		t.Fatalf("calls before the window started: %v", rt.calls)
	}
	w.started(context.WithValue(context.Background(), ctxKey{}, "wails"))
	w.secondLaunch(nil)
	if want := []string{"show wails", "unminimise wails"}; !slices.Equal(rt.calls, want) {
		t.Fatalf("calls = %v, want %v", rt.calls, want)
	}
}

// The single-instance id is the state folder's: the same folder (however it is
// named) gives the same id, another folder another one, and it is a name Wails can
// turn into a D-Bus name.
func TestInstanceIDIsTheFolders(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	id := instanceID(dir)
	if instanceID(link) != id || instanceID(dir+"/.") != id {
		t.Fatalf("one folder, several ids: %s %s %s", id, instanceID(link), instanceID(dir+"/."))
	}
	if instanceID(t.TempDir()) == id {
		t.Fatal("two folders share an id")
	}
	if !strings.HasPrefix(id, "wisp-") || strings.Trim(id[len("wisp-"):], "0123456789abcdef") != "" || len(id) > 64 {
		t.Fatalf("id %q", id)
	}
}

// A desktop launch that finds a desktop Wisp on its folder hands over to it and ends
// without an error; anything else keeps the refusal.
func TestDesktopLaunchHandsOver(t *testing.T) {
	stateDir, log := t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil))
	held := func(mode string) error {
		return &instance.HeldError{Dir: stateDir, Holder: instance.Holder{PID: 7, Mode: mode, URL: "http://127.0.0.1:2138"}}
	}
	cases := []struct {
		name    string
		err     error
		showErr error
		asked   bool
		wantErr bool
	}{
		{"a desktop Wisp answers", held(instance.ModeDesktop), nil, true, false},
		{"a desktop Wisp cannot be reached", held(instance.ModeDesktop), errors.New("no session bus"), true, true},
		{"a served Wisp", held(instance.ModeServe), nil, false, true},
		{"a holder still starting", held(""), nil, false, true},
		{"another failure", errors.New("disk full"), nil, false, true},
	}
	for _, tc := range cases {
		var asked []string
		err := handOver(tc.err, stateDir, log, func(id string) error { asked = append(asked, id); return tc.showErr })
		if (len(asked) > 0) != tc.asked || (tc.asked && asked[0] != instanceID(stateDir)) {
			t.Errorf("%s: asked %v", tc.name, asked)
		}
		if tc.wantErr && err != tc.err || !tc.wantErr && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
