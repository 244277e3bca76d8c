package mic

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// readSamples reads n samples from r.
func readSamples(t *testing.T, r io.Reader, n int) []int16 {
	t.Helper()
	b := make([]byte, 2*n)
	if _, err := io.ReadFull(r, b); err != nil {
		t.Fatal(err)
	}
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return out
}

func TestNullSourceIsSilentUntilStopped(t *testing.T) {
	for _, stop := range []string{"close", "context"} {
		t.Run(stop, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rc, err := NullSource().Start(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := readSamples(t, rc, 800); slices.ContainsFunc(got, func(s int16) bool { return s != 0 }) {
				t.Fatal("the null source is not silent")
			}
			if stop == "close" {
				rc.Close()
			} else {
				cancel()
			}
			if _, err := rc.Read(make([]byte, 64)); !errors.Is(err, io.EOF) {
				t.Fatalf("read after the stop: %v, want EOF", err)
			}
			rc.Close()
		})
	}
}

func TestFileSourceConvertsTheFile(t *testing.T) {
	// 100 ms of 8 kHz stereo whose channels average to 1000.
	in := make([]int16, 2*800)
	for i := range 800 {
		in[2*i], in[2*i+1] = 500, 1500
	}
	path := writeWAV(t, "in.wav", in, Format{8000, 2})
	rc, err := FileSource(path, Unpaced()).Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 2*1600 {
		t.Fatalf("%d bytes, want 100 ms of Speech (3200)", len(b))
	}
	if s := int16(binary.LittleEndian.Uint16(b[100:])); s != 1000 {
		t.Fatalf("sample = %d, want 1000", s)
	}
}

func TestFileSourcePacedThenSilence(t *testing.T) {
	pcm := tone(40*time.Millisecond, 0.5)
	path := writeWAV(t, "in.wav", pcm, Speech)
	rc, err := FileSource(path).Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	start := time.Now()
	got := readSamples(t, rc, len(pcm)+320)
	if el := time.Since(start); el < 50*time.Millisecond {
		t.Fatalf("60 ms of audio came in %v: not in real time", el)
	}
	if !slices.Equal(got[:len(pcm)], pcm) || slices.ContainsFunc(got[len(pcm):], func(s int16) bool { return s != 0 }) {
		t.Fatal("want the file, then silence")
	}
}

func TestFileSourceRefusesWhatIsNotWAV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.wav")
	os.WriteFile(path, []byte("hello"), 0o600)
	if _, err := FileSource(path).Start(context.Background()); !errors.Is(err, ErrNotWAV) {
		t.Fatalf("err = %v, want ErrNotWAV", err)
	}
	if _, err := FileSource(filepath.Join(t.TempDir(), "none.wav")).Start(context.Background()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not exist", err)
	}
}

// fakeTools makes a folder whose programs are named like the recorders (links to
// the test binary) and puts only it on PATH.
func fakeTools(t *testing.T, names ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range names {
		if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv(EnvFile, "")
	t.Setenv(EnvMic, "")
	return dir
}

func TestDetect(t *testing.T) {
	cases := []struct {
		tools []string
		want  string
	}{
		{[]string{"arecord", "parecord", "pw-record"}, "pw-record"},
		{[]string{"arecord", "parecord"}, "parecord"},
		{[]string{"arecord"}, "arecord"},
	}
	for _, c := range cases {
		fakeTools(t, c.tools...)
		src, name, err := Detect()
		if err != nil || name != c.want {
			t.Fatalf("with %v: %q, %v; want %s", c.tools, name, err, c.want)
		}
		if ps, ok := src.(*ProcessSource); !ok || filepath.Base(ps.Path) != c.want {
			t.Fatalf("source %#v", src)
		}
	}
	fakeTools(t)
	if _, _, err := Detect(); !errors.Is(err, ErrNoCapture) {
		t.Fatalf("without tools: %v, want ErrNoCapture", err)
	}
}

func TestDetectOverrides(t *testing.T) {
	fakeTools(t, "pw-record")
	t.Setenv(EnvMic, "null")
	if src, name, err := Detect(); err != nil || name != "null" || src != NullSource() {
		t.Fatalf("WISP_MIC=null: %v %q %v", src, name, err)
	}
	path := writeWAV(t, "speech.wav", tone(10*time.Millisecond, 0.5), Speech)
	t.Setenv(EnvFile, path)
	src, name, err := Detect()
	if err != nil || name != "file "+path {
		t.Fatalf("WISP_MIC_FILE: %q %v", name, err)
	}
	if _, ok := src.(*fileSource); !ok {
		t.Fatalf("source %#v, want the file", src)
	}
}
