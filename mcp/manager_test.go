package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// watch is a Manager whose changes a test can wait on.
type watch struct {
	*Manager
	mu      sync.Mutex
	changes chan struct{}
}

func newWatched(t *testing.T, o Options) *watch {
	t.Helper()
	w := &watch{changes: make(chan struct{}, 1)}
	o.OnChange = func() {
		select {
		case w.changes <- struct{}{}:
		default:
		}
	}
	if o.MinBackoff == 0 {
		o.MinBackoff, o.MaxBackoff = 10*time.Millisecond, 40*time.Millisecond
	}
	w.Manager = New(o)
	t.Cleanup(w.Close)
	return w
}

// until waits for a change after which ok holds for the named server.
func (w *watch) until(t *testing.T, name string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if st, found := w.Server(name); found && ok(st) {
			return st
		}
		select {
		case <-w.changes:
		case <-deadline:
			st, _ := w.Server(name)
			t.Fatalf("server %s never reached the state asked for; now %+v", name, st)
		}
	}
}

func running(st Status) bool { return st.State == Running }

// httpServer serves an in-process MCP server over Streamable HTTP on loopback.
func httpServer(t *testing.T, s *sdk.Server) string {
	t.Helper()
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(func() {
		srv.Close()
		// A session the client did not end (its goodbye lost as the test stopped)
		// would keep its reader waiting: the server side ends them all.
		for ss := range s.Sessions() {
			_ = ss.Close()
		}
	})
	return srv.URL
}

type addArgs struct {
	A int `json:"a" jsonschema:"first number"`
	B int `json:"b" jsonschema:"second number"`
}

type slowArgs struct{}

// toolServer has a typed tool, one that reports progress, one that fails and one
// that waits until it is cancelled: it says on slow when it starts and when it
// saw its cancel. count goes on to its next step when told on seen.
func toolServer(slow chan<- string, seen <-chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "tools", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, Title: "Add"}},
		func(_ context.Context, _ *sdk.CallToolRequest, in addArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "count", Description: "Counts to three, reporting progress"},
		func(ctx context.Context, req *sdk.CallToolRequest, _ slowArgs) (*sdk.CallToolResult, any, error) {
			for i := 1; i <= 3; i++ {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprint("step ", i)})
				// Notifications are handled apart from replies: the next step waits
				// until the client heard this one.
				select {
				case <-seen:
				case <-ctx.Done():
					return nil, nil, ctx.Err()
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "counted"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails"},
		func(context.Context, *sdk.CallToolRequest, slowArgs) (*sdk.CallToolResult, any, error) {
			return nil, nil, errors.New("the disk is on fire")
		})
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Waits to be cancelled"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ slowArgs) (*sdk.CallToolResult, any, error) {
			slow <- "started"
			<-ctx.Done()
			slow <- "cancelled"
			return nil, nil, ctx.Err()
		})
	return s
}

func TestHTTPServerTools(t *testing.T) {
	slow := make(chan string, 2)
	seen := make(chan struct{})
	url := httpServer(t, toolServer(slow, seen))
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"calc": {URL: url}})
	st := w.until(t, "calc", running)

	var got []string
	for _, tool := range st.Tools {
		got = append(got, tool.Action)
	}
	if want := []string{"calc__add", "calc__count", "calc__fail", "calc__slow"}; !slices.Equal(got, want) {
		t.Fatalf("actions = %v, want %v", got, want)
	}
	add := st.Tools[0]
	if add.Description != "Adds two numbers" || add.Annotations == nil || !add.Annotations.ReadOnlyHint {
		t.Errorf("add = %+v", add)
	}
	var schema struct {
		Properties map[string]struct {
			Type, Description string
		}
	}
	if err := json.Unmarshal(add.InputSchema, &schema); err != nil || schema.Properties["a"].Type != "integer" || schema.Properties["b"].Description != "second number" {
		t.Errorf("schema = %s (%v)", add.InputSchema, err)
	}

	ctx := context.Background()
	res, err := w.Call(ctx, "calc", "add", json.RawMessage(`{"a":2,"b":3}`), nil)
	if err != nil || res.Text != "5" || res.IsError {
		t.Errorf("add = %+v, %v", res, err)
	}

	var steps []Progress
	res, err = w.Call(ctx, "calc", "count", json.RawMessage(`{}`), func(p Progress) {
		steps = append(steps, p)
		seen <- struct{}{}
	})
	if err != nil || res.Text != "counted" {
		t.Fatalf("count = %+v, %v", res, err)
	}
	if len(steps) != 3 || steps[2] != (Progress{Progress: 3, Total: 3, Message: "step 3"}) {
		t.Errorf("progress = %+v", steps)
	}

	res, err = w.Call(ctx, "calc", "fail", json.RawMessage(`{}`), nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "the disk is on fire") {
		t.Errorf("fail = %+v, %v", res, err)
	}

	// Stop: the call ends with the context's cause, and the server hears the cancel.
	stop := errors.New("stopped by the user")
	cctx, cancel := context.WithCancelCause(ctx)
	errs := make(chan error, 1)
	go func() {
		_, err := w.Call(cctx, "calc", "slow", json.RawMessage(`{}`), nil)
		errs <- err
	}()
	if got := <-slow; got != "started" {
		t.Fatal(got)
	}
	cancel(stop)
	if err := <-errs; !errors.Is(err, stop) {
		t.Errorf("slow = %v, want the cause", err)
	}
	if got := <-slow; got != "cancelled" {
		t.Errorf("the server saw %q, not the cancel", got)
	}
}

func TestToolListChange(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "grow", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "one"}, func(context.Context, *sdk.CallToolRequest, slowArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	url := httpServer(t, s) // (closed after the manager: cleanups run last first)
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"grow": {URL: url}})
	w.until(t, "grow", running)

	sdk.AddTool(s, &sdk.Tool{Name: "two"}, func(context.Context, *sdk.CallToolRequest, slowArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{}, nil, nil
	})
	w.until(t, "grow", func(st Status) bool { return len(st.Tools) == 2 && st.Tools[1].Action == "grow__two" })
	s.RemoveTools("one")
	w.until(t, "grow", func(st Status) bool { return len(st.Tools) == 1 && st.Tools[0].Action == "grow__two" })
}

// selfServer is a stdio spec that runs this test binary as the env server.
func selfServer(t *testing.T, env map[string]string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"WISP_MCP_TEST_SERVER": "1"}
	for k, v := range env {
		all[k] = v
	}
	return Spec{Command: exe, Args: []string{"-test.run=^$"}, Env: all, Cwd: t.TempDir()}
}

func TestStdioServer(t *testing.T) {
	w := newWatched(t, Options{
		Env:   []string{"PATH=" + os.Getenv("PATH"), "WISP_API_TOKEN=secret", "KEEP=kept", "OWN=base"},
		Strip: []string{"WISP_API_TOKEN"},
	})
	w.Apply(map[string]Spec{"self": selfServer(t, map[string]string{"OWN": "own"})})
	st := w.until(t, "self", running)
	if len(st.Tools) != 1 || st.Tools[0].Action != "self__env" {
		t.Fatalf("tools = %+v", st.Tools)
	}
	for name, want := range map[string]string{"WISP_API_TOKEN": "(unset)", "KEEP": "kept", "OWN": "own"} {
		res, err := w.Call(context.Background(), "self", "env", json.RawMessage(`{"name":"`+name+`"}`), nil)
		if err != nil || res.Text != want {
			t.Errorf("env %s = %+v, %v; want %q", name, res, err, want)
		}
	}
	// The stderr tail: the process's stderr reaches it on its own path, so read it once
	// the process is gone (Wait has copied all of it). Killed, the server fails and
	// starts again, its tail kept.
	if err := syscall.Kill(processOf(t, w, "self"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	st = w.until(t, "self", func(st Status) bool { return st.LastError != "" })
	if !slices.Contains(st.Stderr, "asked for OWN") {
		t.Errorf("stderr tail = %q", st.Stderr)
	}
	w.until(t, "self", running)
	pid := processOf(t, w, "self")

	// Removing it stops the process.
	w.Apply(map[string]Spec{})
	if _, ok := w.Server("self"); ok {
		t.Fatal("the server is still listed")
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d still exists after the server was removed (kill 0: %v)", pid, err)
	}
	if _, err := w.Call(context.Background(), "self", "env", json.RawMessage(`{}`), nil); !errors.Is(err, ErrUnknown) {
		t.Errorf("call after removal: %v", err)
	}
}

// processOf is the pid of a running stdio server's process.
func processOf(t *testing.T, w *watch, name string) int {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.Manager.mu.Lock()
	s := w.servers[name]
	w.Manager.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pid == 0 {
		t.Fatalf("server %s has no process", name)
	}
	return s.pid
}

func TestFailingServerRetriesWithBackoff(t *testing.T) {
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"broken": {Command: "/bin/sh", Args: []string{"-c", "echo 'cannot open the database' >&2; exit 3"}}})
	st := w.until(t, "broken", func(st Status) bool { return st.State == Failed && st.Restarts >= 2 })
	if !strings.Contains(st.LastError, "exit status 3") {
		t.Errorf("last error = %q", st.LastError)
	}
	if !slices.Contains(st.Stderr, "cannot open the database") {
		t.Errorf("stderr = %q", st.Stderr)
	}
	if st.RetryAt.IsZero() {
		t.Error("no next retry time while failed")
	}
	_, err := w.Call(context.Background(), "broken", "anything", json.RawMessage(`{}`), nil)
	if err == nil || !strings.Contains(err.Error(), "is not running") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("call to a failed server: %v", err)
	}

	// A program that does not exist fails with a clear message.
	w.Apply(map[string]Spec{"missing": {Command: "wisp-no-such-program"}})
	st = w.until(t, "missing", func(st Status) bool { return st.State == Failed })
	if !strings.Contains(st.LastError, `command "wisp-no-such-program" not found in PATH (inherited): `) {
		t.Errorf("last error = %q", st.LastError)
	}
}

func TestDisabledAndRestart(t *testing.T) {
	url := httpServer(t, toolServer(make(chan string, 2), make(chan struct{})))
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"calc": {URL: url, Disabled: true}})
	st := w.until(t, "calc", func(st Status) bool { return st.State == Disabled })
	if len(st.Tools) != 0 {
		t.Errorf("a disabled server offers %d tools", len(st.Tools))
	}
	if _, err := w.Call(context.Background(), "calc", "add", json.RawMessage(`{}`), nil); err == nil || !strings.Contains(err.Error(), "turned off") {
		t.Errorf("call to a disabled server: %v", err)
	}
	w.Apply(map[string]Spec{"calc": {URL: url}})
	w.until(t, "calc", running)
	st, err := w.Restart("calc")
	if err != nil || st.Restarts != 1 {
		t.Fatalf("restart: %+v, %v", st, err)
	}
	w.until(t, "calc", running)
	if _, err := w.Restart("nobody"); !errors.Is(err, ErrUnknown) {
		t.Errorf("restart of an unknown server: %v", err)
	}
}
