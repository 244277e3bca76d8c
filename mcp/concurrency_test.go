package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// within fails the test if fn has not returned by the deadline: a deadlock is a
// failure, not a hung test binary.
func within(t *testing.T, what string, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %s (a deadlock?)", what, d)
	}
}

// An OnChange that reads the manager (as Wisp's does: it lists the servers and their
// tools) must not deadlock Apply, Restart or Close, whatever the servers' states.
func TestOnChangeMayReadTheManager(t *testing.T) {
	url := httpServer(t, toolServer(make(chan string, 2), make(chan struct{})))
	var m *Manager
	var mu sync.Mutex
	seen := 0
	changes := make(chan struct{}, 1)
	m = New(Options{OnChange: func() {
		list := m.Servers()
		_ = m.Tools()
		_, _ = m.Server("old")
		mu.Lock()
		seen = len(list)
		mu.Unlock()
		select {
		case changes <- struct{}{}:
		default:
		}
	}, MinBackoff: 10 * time.Millisecond, MaxBackoff: 40 * time.Millisecond})
	t.Cleanup(m.Close)

	// docs/mcp.md's own example: a disabled server.
	within(t, "Apply of a disabled server", 10*time.Second, func() {
		m.Apply(map[string]Spec{"old": {Command: "old-server", Disabled: true}})
	})
	if st, ok := m.Server("old"); !ok || st.State != Disabled {
		t.Fatalf("old = %+v, %v", st, ok)
	}
	within(t, "Apply of a new server beside it", 10*time.Second, func() {
		m.Apply(map[string]Spec{"old": {Command: "old-server", Disabled: true}, "calc": {URL: url}})
	})
	within(t, "Restart of the disabled server", 10*time.Second, func() {
		if st, err := m.Restart("old"); err != nil || st.State != Disabled {
			t.Errorf("restart = %+v, %v", st, err)
		}
	})
	deadline := time.After(20 * time.Second)
	for {
		if st, _ := m.Server("calc"); st.State == Running {
			break
		}
		select {
		case <-changes:
		case <-deadline:
			t.Fatal("calc never ran")
		}
	}
	within(t, "Close", 10*time.Second, m.Close)
	mu.Lock()
	defer mu.Unlock()
	if seen == 0 {
		t.Error("OnChange never saw a server")
	}
}

// A double-clicked Restart, two Settings tabs, an edit at the same time: restarts
// and applies of one server from many goroutines never crash, never answer an
// error other than "unknown", and leave one server that runs.
func TestConcurrentRestartsAndApplies(t *testing.T) {
	url := httpServer(t, toolServer(make(chan string, 2), make(chan struct{})))
	w := newWatched(t, Options{})
	specs := []map[string]Spec{
		{"calc": {URL: url}},
		{"calc": {URL: url, Headers: map[string]string{"X-Edit": "1"}}},
		{"calc": {URL: url, Disabled: true}},
		{"calc": {Command: "wisp-no-such-program"}},
	}
	w.Apply(specs[0])
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 12 {
		wg.Go(func() {
			for j := range 4 {
				if (i+j)%3 == 0 {
					w.Apply(specs[(i+j)%len(specs)])
					continue
				}
				if _, err := w.Restart("calc"); err != nil && !errors.Is(err, ErrUnknown) {
					errs <- fmt.Errorf("restart %d.%d: %w", i, j, err)
				}
			}
		})
	}
	within(t, "the restarts and applies", 60*time.Second, wg.Wait)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	w.Apply(specs[0])
	st := w.until(t, "calc", running)
	if st.Restarts == 0 && len(st.Tools) == 0 {
		t.Errorf("calc = %+v", st)
	}
	res, err := w.Call(context.Background(), "calc", "add", json.RawMessage(`{"a":1,"b":2}`), nil)
	if err != nil || res.Text != "3" {
		t.Errorf("add after the storm = %+v, %v", res, err)
	}
}

// Restarts of one server are serialised: each stops the one before and starts its
// own, which ends up running.
func TestRestartsInARow(t *testing.T) {
	url := httpServer(t, toolServer(make(chan string, 2), make(chan struct{})))
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"calc": {URL: url}})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := w.Restart("calc"); err != nil {
				t.Errorf("restart: %v", err)
			}
		})
	}
	within(t, "8 restarts", 60*time.Second, wg.Wait)
	st := w.until(t, "calc", running)
	if st.Restarts != 8 {
		t.Errorf("restarts = %d, want 8", st.Restarts)
	}
}

// A call made while its server starts (Wisp just started, or the server was just
// restarted) waits for it; one whose server cannot start fails with the reason.
func TestCallWaitsForAStartingServer(t *testing.T) {
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"self": selfServer(t, nil), "missing": {Command: "wisp-no-such-program"}})
	ctx := context.Background()
	res, err := w.Call(ctx, "self", "env", json.RawMessage(`{"name":"WISP_MCP_TEST_SERVER"}`), nil)
	if err != nil || res.Text != "1" {
		t.Fatalf("a call as the server starts = %+v, %v", res, err)
	}
	if _, err := w.Call(ctx, "missing", "x", json.RawMessage(`{}`), nil); err == nil || !strings.Contains(err.Error(), "not found in PATH") {
		t.Errorf("a call to a server that cannot start: %v", err)
	}
	if _, err := w.Restart("self"); err != nil {
		t.Fatal(err)
	}
	if res, err := w.Call(ctx, "self", "env", json.RawMessage(`{"name":"WISP_MCP_TEST_SERVER"}`), nil); err != nil || res.Text != "1" {
		t.Errorf("a call right after a restart = %+v, %v", res, err)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	stop := errors.New("stopped by the user")
	cancel(stop)
	w.Apply(map[string]Spec{"slow": {Command: "/bin/sh", Args: []string{"-c", "exec sleep 60"}}})
	if _, err := w.Call(cctx, "slow", "x", json.RawMessage(`{}`), nil); !errors.Is(err, stop) {
		t.Errorf("a stopped call waiting for its server: %v", err)
	}
}
