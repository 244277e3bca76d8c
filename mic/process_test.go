package mic

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeSource is a ProcessSource running the test binary as a recorder in mode.
func fakeSource(t *testing.T, mode string) (*ProcessSource, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	t.Setenv("MIC_TEST_RECORDER", mode)
	t.Setenv("MIC_TEST_PIDFILE", pidFile)
	return &ProcessSource{Name: "fake-record", Path: exe, Args: []string{"--rate", "16000"}}, pidFile
}

// childPid reads the pid the fake recorder's child wrote.
func childPid(t *testing.T, pidFile string) int {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		b, _ := os.ReadFile(pidFile)
		if pid, err := strconv.Atoi(string(b)); err == nil {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake recorder wrote no child pid")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestProcessSourceStopKillsTheGroup(t *testing.T) {
	src, pidFile := fakeSource(t, "tone")
	rc, err := src.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pid, child := pidOf(rc), childPid(t, pidFile)
	if got := readSamples(t, rc, 320); rms(got) < 0.1 {
		t.Fatalf("rms %.3f: the recorder's tone did not come through", rms(got))
	}
	rc.Close()
	waitGone(t, "the recorder", pid)
	waitGone(t, "the recorder's child", child)
	if _, err := rc.Read(make([]byte, 64)); !errors.Is(err, io.EOF) {
		t.Fatalf("read after Close: %v, want EOF", err)
	}
}

func TestProcessSourceContextKillsTheGroup(t *testing.T) {
	src, pidFile := fakeSource(t, "tone")
	ctx, cancel := context.WithCancel(context.Background())
	rc, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	pid, child := pidOf(rc), childPid(t, pidFile)
	cancel()
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatalf("reading until the end: %v, want a clean end", err)
	}
	waitGone(t, "the recorder", pid)
	waitGone(t, "the recorder's child", child)
}

func TestProcessSourceLimitKillsTheGroup(t *testing.T) {
	src, pidFile := fakeSource(t, "tone")
	src.Limit = 300 * time.Millisecond
	rc, err := src.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	pid, child := pidOf(rc), childPid(t, pidFile)
	start := time.Now()
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatalf("reading until the limit: %v, want a clean end", err)
	}
	if time.Since(start) > waitLimit {
		t.Fatal("the limit did not stop the recorder")
	}
	waitGone(t, "the recorder", pid)
	waitGone(t, "the recorder's child", child)
}

func TestProcessSourceReportsARecorderThatFails(t *testing.T) {
	src, _ := fakeSource(t, "fail")
	rc, err := src.Start(context.Background())
	if err == nil {
		rc.Close()
		t.Fatal("a recorder that exits at once started")
	}
	if !strings.Contains(err.Error(), "fake-record did not start") || !strings.Contains(err.Error(), "cannot open audio device default") {
		t.Fatalf("err = %v, want the recorder's name and its last stderr line", err)
	}
}

func TestProcessSourceReportsARecorderThatDies(t *testing.T) {
	src, _ := fakeSource(t, "die")
	rc, err := src.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	_, err = io.Copy(io.Discard, rc)
	if err == nil || !strings.Contains(err.Error(), "the device was disconnected") {
		t.Fatalf("err = %v, want the recorder's last stderr line", err)
	}
}

func TestProcessSourceSilentRecorderTimesOut(t *testing.T) {
	old := startTimeout
	startTimeout = 200 * time.Millisecond
	defer func() { startTimeout = old }()
	src, _ := fakeSource(t, "silent")
	rc, err := src.Start(context.Background())
	if err == nil {
		rc.Close()
		t.Fatal("a recorder that gives nothing started")
	}
	if !strings.Contains(err.Error(), "gave no audio") {
		t.Fatalf("err = %v", err)
	}
}

func TestProcessSourceReadsAnAUStream(t *testing.T) {
	src, _ := fakeSource(t, "au")
	rc, err := src.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got := readSamples(t, rc, 640)
	want := tone(20*time.Millisecond, 0.3)
	for i := range 640 {
		if got[i] != want[i%320] {
			t.Fatalf("sample %d = %d, want %d (byte order or header)", i, got[i], want[i%320])
		}
	}
}

func TestProcessSourceStartFailsForAMissingProgram(t *testing.T) {
	src := &ProcessSource{Name: "pw-record", Path: filepath.Join(t.TempDir(), "pw-record")}
	if _, err := src.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "start pw-record") {
		t.Fatalf("err = %v", err)
	}
}
