package instance

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A second lock on a folder is refused with who holds it, as the holder last said;
// once released, the folder can be locked again. (flock locks belong to an open file,
// so two locks in one process conflict as two processes' would.)
func TestOneHolderPerFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state") // made by Acquire
	first, err := Acquire(dir, Holder{PID: 1234, Mode: ModeServe})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Release()
	st, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v %v", st, err)
	}

	_, err = Acquire(dir, Holder{PID: 99, Mode: ModeServe})
	var held *HeldError
	if !errors.As(err, &held) || held.Holder != (Holder{PID: 1234, Mode: ModeServe}) {
		t.Fatalf("second lock while the first starts: %v", err)
	}
	if want := "another Wisp is already running on this state folder (pid 1234, still starting): " + dir; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("message %q, want it to start with %q", err, want)
	}

	if err := first.Update(Holder{PID: 1234, Mode: ModeServe, URL: "http://127.0.0.1:2138"}); err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir, Holder{PID: 99})
	if want := "another Wisp is already running on this state folder (http://127.0.0.1:2138, pid 1234)"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("second lock once the first listens: %v, want %q", err, want)
	}

	first.Release()
	first.Release() // harmless
	if err := first.Update(Holder{PID: 1}); err == nil {
		t.Fatal("a released lock took an update")
	}
	again, err := Acquire(dir, Holder{PID: 5678, Mode: ModeDesktop})
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	defer again.Release()
	_, err = Acquire(dir, Holder{})
	if !errors.As(err, &held) || held.Holder != (Holder{PID: 5678, Mode: ModeDesktop}) {
		t.Fatalf("the new holder: %v", err)
	}
}

// What the holder wrote is read with care: nothing yet, or something that is not a
// holder, names no one.
func TestUnreadableHolder(t *testing.T) {
	for name, content := range map[string]string{"empty": "", "half written": `{"pid":12`, "huge": strings.Repeat("x", 1<<20)} {
		dir := t.TempDir()
		l, err := Acquire(dir, Holder{PID: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err = Acquire(dir, Holder{})
		var held *HeldError
		if !errors.As(err, &held) || held.Holder != (Holder{}) || !strings.Contains(err.Error(), "(still starting)") {
			t.Errorf("%s: %v", name, err)
		}
		l.Release()
	}
}

// A lock file that is not a regular file (a FIFO someone put there) is refused at
// once rather than waited on.
func TestLockFileMustBeAFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dir, Holder{PID: 1}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO as the lock file: %v", err)
	}
	link := t.TempDir()
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(link, FileName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(link, Holder{PID: 1}); err == nil {
		t.Fatal("a lock file that is a link was followed")
	}
}
