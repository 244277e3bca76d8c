package atomicfile

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Lstat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

// Write replaces the file whole with its mode, and leaves no temporary file.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "made")
	path := filepath.Join(dir, "wisp.json")
	for i, perm := range []os.FileMode{0o600, 0o644} {
		content := fmt.Sprintf("content %d\n", i)
		if err := Write(path, []byte(content), perm); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		st, _ := os.Stat(path)
		if err != nil || string(got) != content || st.Mode().Perm() != perm {
			t.Fatalf("after write %d: %q %v, mode %v", i, got, err, st.Mode())
		}
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v", st.Mode())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left in the folder: %v", entries)
	}
}

// A sweep removes a temporary file no one holds (a writer that died), keeps one whose
// lock another open file holds (a writer at work), and touches nothing else: other
// files' temporary files, look-alikes, and what is not a regular file.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".wisp.json.tmp-111")
	write(t, stale, "half")
	live := filepath.Join(dir, ".wisp.json.tmp-222")
	write(t, live, "being written")
	f, err := os.Open(live) // another open file description, as another process's
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	others := []string{"wisp.json", ".api-token.tmp-1", "wisp.json.tmp-1", ".wisp.json.tmp", ".wisp.jsonx.tmp-1"}
	for _, name := range others {
		write(t, filepath.Join(dir, name), "x")
	}
	if err := os.Mkdir(filepath.Join(dir, ".wisp.json.tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(stale, filepath.Join(dir, ".wisp.json.tmp-link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".wisp.json.tmp-fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	others = append(others, ".wisp.json.tmp-dir", ".wisp.json.tmp-link", ".wisp.json.tmp-fifo", filepath.Base(live))

	removed, err := Sweep(dir, "wisp.json")
	if err != nil || !slices.Equal(removed, []string{stale}) {
		t.Fatalf("removed %v, %v; want only %s", removed, err, stale)
	}
	for _, name := range others {
		if !exists(t, filepath.Join(dir, name)) {
			t.Errorf("%s was removed", name)
		}
	}

	f.Close() // the writer dies: its lock goes
	if removed, err := Sweep(dir, "wisp.json"); err != nil || !slices.Equal(removed, []string{live}) {
		t.Fatalf("after the writer let go: removed %v, %v", removed, err)
	}
	if removed, err := Sweep(filepath.Join(dir, "missing"), "wisp.json"); err != nil || removed != nil {
		t.Fatalf("a missing folder: %v, %v", removed, err)
	}
}

// Writes and sweeps at the same time: every write succeeds (a sweep that takes a
// temporary file before its writer locked it makes the writer make another), and no
// temporary file is left.
func TestWritesSurviveSweeps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp.json")
	const writes = 100
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := Sweep(dir, "wisp.json"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range writes {
		if err := Write(path, []byte(fmt.Sprint(i)), 0o600); err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	close(stop)
	wg.Wait()
	if got, _ := os.ReadFile(path); string(got) != fmt.Sprint(writes-1) {
		t.Fatalf("content %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left in the folder: %v", entries)
	}
}

// childEnv makes the test binary, run again, a writer that stops in the middle of a
// write (see TestChildWriter).
const childEnv = "WISP_ATOMICFILE_CHILD_DIR"

// TestChildWriter is the child of TestSweepAfterKill, not a test of its own: it makes a
// temporary file the way Write does, locked, writes half of the content, says the
// file's name on stdout and waits to be killed.
func TestChildWriter(t *testing.T) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		t.Skip("the child of TestSweepAfterKill")
	}
	f, err := createLocked(dir, "wisp.json")
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	f.WriteString(`{"character":`)
	fmt.Println(f.Name())
	select {} // killed here
}

// The real reproduction: a writer killed with SIGKILL in the middle of a write leaves
// its temporary file; while it lived a sweep kept the file, once it is dead a sweep
// removes it (the kernel let go of its lock).
func TestSweepAfterKill(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestChildWriter$", "-test.count=1")
	child.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer child.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n') // ends with the context
	tmp := strings.TrimSpace(line)
	if err != nil || filepath.Dir(tmp) != dir || !strings.HasPrefix(filepath.Base(tmp), TempPrefix("wisp.json")) {
		t.Fatalf("the child said %q, %v", line, err)
	}

	if removed, err := Sweep(dir, "wisp.json"); err != nil || len(removed) != 0 || !exists(t, tmp) {
		t.Fatalf("a sweep while the writer lives removed %v (%v)", removed, err)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := child.Wait(); err == nil || ctx.Err() != nil {
		t.Fatalf("the child ended with %v (%v), want killed", err, ctx.Err())
	}
	if !exists(t, tmp) {
		t.Fatal("the killed writer's temporary file is gone before the sweep")
	}
	if removed, err := Sweep(dir, "wisp.json"); err != nil || !slices.Equal(removed, []string{tmp}) || exists(t, tmp) {
		t.Fatalf("a sweep after the kill removed %v (%v), want %s", removed, err, tmp)
	}
}
