package avatar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

var quiet = slog.New(slog.DiscardHandler)

func TestSaveOpenRemove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "avatar")
	s := New(dir, quiet)
	if got := s.Current(); got != Builtin {
		t.Fatalf("a new store shows %+v", got)
	}
	if _, err := s.Open(); !fault.Is(err, fault.NotFound) {
		t.Fatalf("Open without a model: %v", err)
	}
	data := validVRM(t, "1", nil)
	sum := sha256.Sum256(data)
	a, err := s.Save(context.Background(), "../My Character.vrm", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := wire.Avatar{Kind: wire.AvatarVRM, URL: "/avatar/user.vrm?v=" + hex.EncodeToString(sum[:4]),
		Name: "My Character.vrm", Size: int64(len(data)), VRMVersion: "1"}
	if a != want || s.Current() != want {
		t.Fatalf("saved %+v, current %+v, want %+v", a, s.Current(), want)
	}
	f, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, data) || f.ETag != `"`+hex.EncodeToString(sum[:])+`"` {
		t.Errorf("served %d bytes, ETag %s", len(got), f.ETag)
	}
	// a restart finds it again
	if again := New(dir, quiet).Current(); again != want {
		t.Errorf("after a restart: %+v", again)
	}
	// a 0.x model replaces it; its own name is used when the upload has none
	a, err = s.Save(context.Background(), "", bytes.NewReader(validVRM(t, "0", nil)))
	if err != nil || a.VRMVersion != "0" || a.Name != "Old tester" {
		t.Fatalf("0.x: %+v, %v", a, err)
	}
	if a, err = s.Remove(); err != nil || a != Builtin || s.Current() != Builtin {
		t.Fatalf("remove: %+v, %v", a, err)
	}
	if New(dir, quiet).Current() != Builtin {
		t.Error("the removed model came back after a restart")
	}
	if _, err := s.Remove(); err != nil {
		t.Errorf("removing twice: %v", err)
	}
}

// failingReader is an upload cut short: some bytes, then an error.
type failingReader struct {
	data []byte
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// A refused model leaves nothing behind and keeps the previous one.
func TestSaveRefusesAndKeepsThePrevious(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, quiet)
	s.limit = 4096
	good := validVRM(t, "1", nil)
	prev, err := s.Save(context.Background(), "good.vrm", bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	big := validVRM(t, "1", func(d map[string]any) { d["pad"] = strings.Repeat("x", 5000) })
	for _, c := range []struct {
		name string
		body io.Reader
		kind fault.Kind
		want string
	}{
		{"empty", bytes.NewReader(nil), fault.Invalid, "not a VRM model: the file is empty"},
		{"garbage", strings.NewReader("hello, world, this is not a model"), fault.Invalid, "not a VRM model"},
		{"too large", bytes.NewReader(big), fault.TooLarge, "larger than 4 KiB"},
		{"cut short", &failingReader{data: good[:len(good)/2]}, fault.Invalid, "did not arrive whole"},
		{"external", bytes.NewReader(validVRM(t, "1", func(d map[string]any) {
			d["images"] = []any{map[string]any{"uri": "http://example.com/x.png"}}
		})), fault.Invalid, "outside file"},
	} {
		_, err := s.Save(context.Background(), "x.vrm", c.body)
		if !fault.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a %s fault saying %q", c.name, err, c.kind, c.want)
		}
		if s.Current() != prev {
			t.Errorf("%s: the previous model was replaced: %+v", c.name, s.Current())
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "user.json user.vrm" {
		t.Errorf("the folder holds %v", names)
	}
	f, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, _ := io.ReadAll(f); !bytes.Equal(got, good) {
		t.Error("the stored model changed")
	}
}

func TestNewCleansUpAndChecksTheRecord(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, quiet)
	if _, err := s.Save(context.Background(), "a.vrm", bytes.NewReader(validVRM(t, "1", nil))); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, ".upload-123")
	if err := os.WriteFile(leftover, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if New(dir, quiet).Current().Kind != wire.AvatarVRM {
		t.Error("the model was lost")
	}
	if _, err := os.Stat(leftover); !errors.Is(err, os.ErrNotExist) {
		t.Error("a dead upload's file was left")
	}
	// a model that does not match its record is ignored
	if err := os.WriteFile(filepath.Join(dir, modelFile), []byte("glTF"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := New(dir, quiet).Current(); got != Builtin {
		t.Errorf("a mismatched model shows: %+v", got)
	}
}

func TestSaveCancelled(t *testing.T) {
	s := New(t.TempDir(), quiet)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Save(ctx, "a.vrm", bytes.NewReader(validVRM(t, "1", nil))); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if s.Current() != Builtin {
		t.Error("a cancelled upload was stored")
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"a.vrm", "x"}:                 "a.vrm",
		{"/etc/passwd", ""}:            "passwd",
		{"..\\evil\x00.vrm", ""}:       "..evil.vrm",
		{"", "Model\n"}:                "Model",
		{"", ""}:                       "avatar.vrm",
		{strings.Repeat("é", 300), ""}: strings.Repeat("é", 100),
		{"  spaced  .vrm ", "ignored"}: "spaced  .vrm",
	} {
		if got := displayName(in[0], in[1]); got != want {
			t.Errorf("displayName(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}
