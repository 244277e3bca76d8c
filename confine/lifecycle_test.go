//go:build linux

package confine

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestModes(t *testing.T) {
	c := landlocked(t, Off, 0)
	tr := newTree(t)
	c.Set(Policy{Deny: []string{tr.state}, Ports: []int{listen(t)}})
	if level, reason := c.Status(); level != None || !strings.Contains(reason, "turned off") {
		t.Errorf("off: %s, %q", level, reason)
	}
	mustWork(t, c, "cat "+tr.token)

	p := landlocked(t, Paths, 1)
	port := listen(t)
	p.Set(Policy{Deny: []string{tr.state}, Ports: []int{port}})
	if level, reason := p.Status(); level != Partial || !strings.Contains(reason, "Wisp's port") {
		t.Errorf("paths: %s, %q", level, reason)
	}
	mustFail(t, p, "cat "+tr.token, "Permission denied")
	mustWork(t, p, "exec 3<>/dev/tcp/127.0.0.1/"+strconv.Itoa(port))
}

func TestClosed(t *testing.T) {
	c := landlocked(t, Auto, 1)
	if _, err := c.Start(func() error { return nil }); err == nil {
		t.Error("a start before any policy works")
	}
	c.Set(Policy{Deny: []string{newTree(t).state}})
	c.Close()
	if _, err := c.Start(func() error { return nil }); err != ErrClosed {
		t.Errorf("start after close: %v", err)
	}
}

// Prepare restricts a thread before any process asks for one; Close ends it.
func TestPrepare(t *testing.T) {
	c := landlocked(t, Auto, 1)
	tr := newTree(t)
	c.Set(Policy{Deny: []string{tr.state}, Ports: []int{listen(t)}})
	c.Prepare()
	waitThreads(t, 1)
	mustFail(t, c, "cat "+tr.token, "Permission denied")
	c.Close()
	waitThreads(t, 0)
}

// waitThreads waits until n threads of this process have no_new_privs.
func waitThreads(t *testing.T, n int) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Second)
	for restrictedThreads(t) != n {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%d threads have no_new_privs, want %d", restrictedThreads(t), n)
		}
	}
}
