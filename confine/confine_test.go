//go:build linux

package confine

import (
	"bytes"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var quiet = slog.New(slog.DiscardHandler)

// tree is a home folder with Wisp's state folder where it goes by default, a file
// beside it and a project folder.
type tree struct{ root, home, state, token, notes, project string }

func newTree(t *testing.T) tree {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{root: root, home: filepath.Join(root, "home")}
	tr.state = filepath.Join(tr.home, ".local", "state", "wisp")
	tr.token = filepath.Join(tr.state, "api-token")
	tr.notes = filepath.Join(tr.home, "notes.txt")
	tr.project = filepath.Join(tr.home, "src")
	for _, d := range []string{tr.state, tr.project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, tr.token, "the-token")
	write(t, tr.notes, "notes")
	return tr
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// landlocked is a Confiner of the mode, failing the test where the kernel has less
// Landlock than it needs (Wisp's confinement would not hold there).
func landlocked(t *testing.T, mode Mode, abi int) *Confiner {
	t.Helper()
	c := New(Options{Mode: mode, Logger: quiet})
	if c.abi < abi {
		t.Fatalf("needs Landlock ABI %d, this kernel has %d (%s)", abi, c.abi, c.none)
	}
	t.Cleanup(c.Close)
	return c
}

// sh runs script with bash, confined by c, and says what it printed and how it exited.
func sh(t *testing.T, c *Confiner, script string) (string, int) {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", script)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	release, err := c.Start(cmd.Start)
	if err != nil {
		t.Fatalf("start %q: %v", script, err)
	}
	defer release()
	_ = cmd.Wait()
	return out.String(), cmd.ProcessState.ExitCode()
}

func mustFail(t *testing.T, c *Confiner, script, want string) {
	t.Helper()
	if out, code := sh(t, c, script); code == 0 || !strings.Contains(out, want) {
		t.Errorf("%q: exit %d, %q; want a failure saying %q", script, code, out, want)
	}
}

func mustWork(t *testing.T, c *Confiner, script string) string {
	t.Helper()
	out, code := sh(t, c, script)
	if code != 0 {
		t.Errorf("%q: exit %d, %q", script, code, out)
	}
	return out
}

func TestDeniedFolder(t *testing.T) {
	c := landlocked(t, Auto, 1)
	tr := newTree(t)
	c.Set(Policy{Deny: []string{tr.state}})
	mustFail(t, c, "cat "+tr.token, "Permission denied")
	mustFail(t, c, "echo x > "+tr.token, "Permission denied")
	mustFail(t, c, "echo x > "+tr.state+"/new", "Permission denied")
	mustFail(t, c, "mv "+tr.state+" "+tr.home+"/moved", "")
	mustFail(t, c, "rm -rf "+tr.state, "")
	// Everything beside the way to it is as before.
	if got := mustWork(t, c, "cat "+tr.notes); got != "notes" {
		t.Errorf("notes: %q", got)
	}
	mustWork(t, c, "echo more >> "+tr.notes)
	mustWork(t, c, "mkdir -p "+tr.project+"/a/b && touch "+tr.project+"/a/b/c && rm -r "+tr.project+"/a")
	mustWork(t, c, "ls "+tr.home+" / && cat /etc/hostname >/dev/null")
	// New entries right in a folder above it would reach its place too.
	mustFail(t, c, "touch "+tr.home+"/new", "Permission denied")
	if b, err := os.ReadFile(tr.token); err != nil || string(b) != "the-token" {
		t.Errorf("the token is now %q, %v", b, err)
	}
}

func TestDeniedPort(t *testing.T) {
	c := landlocked(t, Auto, 4)
	wisp, other := listen(t), listen(t)
	c.Set(Policy{Ports: []int{wisp}, Deny: []string{newTree(t).state}})
	mustFail(t, c, "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(wisp), "Permission denied")
	mustWork(t, c, "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(other))
	if level, reason := c.Status(); level != Full {
		t.Errorf("status %s: %s", level, reason)
	}
	// A new port (a restart that moved Wisp) is denied from the next process on.
	c.Set(Policy{Ports: []int{other}, Deny: []string{newTree(t).state}})
	mustFail(t, c, "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(other), "Permission denied")
	mustWork(t, c, "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(wisp))
}

// listen is a port something listens on until the test ends.
func listen(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// Only the spawner's thread is restricted: Wisp reads the denied folder while a
// confined process cannot, and no other thread has no_new_privs. Confining the
// whole process (go-landlock's Restrict) fails this.
func TestWispStaysUnrestricted(t *testing.T) {
	c := landlocked(t, Auto, 1)
	tr := newTree(t)
	c.Set(Policy{Deny: []string{tr.state}})
	cmd := exec.Command("/bin/sleep", "60")
	release, err := c.Start(cmd.Start)
	if err != nil {
		t.Fatal(err)
	}
	if got := restrictedThreads(t); got != 1 {
		t.Errorf("%d threads have no_new_privs, want 1 (the spawner)", got)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := os.ReadFile(tr.token)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Errorf("Wisp cannot read its own state folder: %v", err)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	release()
	c.Close()
	goleak.VerifyNone(t) // the spawner is gone; its thread ends just after
	waitThreads(t, 0)
}

// restrictedThreads counts this process's threads with no_new_privs set.
func restrictedThreads(t *testing.T) int {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err == nil && strings.Contains(string(b), "NoNewPrivs:\t1") {
			n++
		}
	}
	return n
}

// A folder made above the denied one after the rules were built is usable.
func TestNewEntriesAbove(t *testing.T) {
	c := landlocked(t, Auto, 1)
	tr := newTree(t)
	c.Set(Policy{Deny: []string{tr.state}})
	mustWork(t, c, "true")
	if err := os.Mkdir(filepath.Join(tr.home, "later"), 0o700); err != nil {
		t.Fatal(err)
	}
	mustWork(t, c, "touch "+tr.home+"/later/file")
	mustFail(t, c, "cat "+tr.token, "Permission denied")
}

// The config file as Wisp may find it: a link elsewhere, a temporary file beside it
// (atomicfile's, about to be renamed over it) and a hard link made before.
func TestDeniedFile(t *testing.T) {
	c := landlocked(t, Auto, 2)
	tr := newTree(t)
	dotfiles := filepath.Join(tr.home, "dotfiles")
	config := filepath.Join(dotfiles, "wisp.json")
	link := filepath.Join(tr.home, ".wisp.json")
	if err := os.Mkdir(dotfiles, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, config, "{}")
	write(t, filepath.Join(dotfiles, ".wisp.json.tmp-123"), "{}")
	write(t, filepath.Join(dotfiles, "other"), "other")
	if err := os.Symlink(config, link); err != nil {
		t.Fatal(err)
	}
	for _, hard := range []string{filepath.Join(tr.project, "hard"), filepath.Join(tr.home, "hard")} {
		if err := os.Link(config, hard); err != nil {
			t.Fatal(err)
		}
	}
	c.Set(Policy{Deny: []string{tr.state, link}})
	for _, p := range []string{link, config, dotfiles + "/.wisp.json.tmp-123", tr.home + "/hard"} {
		mustFail(t, c, "cat "+p, "Permission denied")
	}
	mustFail(t, c, "echo '{}' > "+dotfiles+"/x && mv "+dotfiles+"/x "+config, "Permission denied")
	mustFail(t, c, "ln -sf /tmp "+link, "")
	mustWork(t, c, "cat "+dotfiles+"/other")
	// A hard link in a subfolder is that subfolder's: what Landlock cannot see.
	mustWork(t, c, "cat "+tr.project+"/hard")
}
