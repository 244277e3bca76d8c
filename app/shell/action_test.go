package shell

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// frames records what is published.
type frames struct {
	mu  sync.Mutex
	all []wire.Frame
	got chan wire.Frame
}

func (f *frames) Publish(fr wire.Frame) {
	f.mu.Lock()
	f.all = append(f.all, fr)
	f.mu.Unlock()
	select {
	case f.got <- fr:
	default:
	}
}

// call records what the action reports and calls back.
type call struct {
	mu        sync.Mutex
	reports   []runtime.Event
	callbacks []string
	paused    chan runtime.RunPaused
}

func (c *call) report(ev runtime.Event) {
	c.mu.Lock()
	c.reports = append(c.reports, ev)
	c.mu.Unlock()
	if p, ok := ev.Data.(runtime.RunPaused); ok {
		c.paused <- p
	}
}

func (c *call) callback(text string, _ runtime.Merge) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.callbacks = append(c.callbacks, text)
}

func (c *call) statuses() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, ev := range c.reports {
		switch d := ev.Data.(type) {
		case runtime.ToolStatus:
			out = append(out, d.Status)
		case runtime.RunPaused:
			out = append(out, "paused")
		case runtime.RunResumed:
			out = append(out, "resumed:"+d.Decision)
		}
	}
	return out
}

type env struct {
	t         *testing.T
	st        *store.Store
	approvals *approval.Service
	term      *terminal.Manager
	act       runtime.Action
	n         int
}

func newEnv(t *testing.T, maxDuration time.Duration) *env {
	return newEnvShell(t, maxDuration, "/bin/bash")
}

func newEnvShell(t *testing.T, maxDuration time.Duration, shell string) *env {
	t.Helper()
	st := storetest.Open(t, "c", "run")
	ap := approval.New(approval.Options{Store: st, Events: &frames{got: make(chan wire.Frame, 16)}})
	term := terminal.NewManager(terminal.Options{Shell: shell, Dir: t.TempDir(), MaxDuration: maxDuration, KillGrace: 100 * time.Millisecond})
	t.Cleanup(term.Stop)
	e := &env{t: t, st: st, approvals: ap, term: term}
	e.act = Action(Options{Approvals: ap, Terminal: func() *terminal.Manager { return term }, Tick: 5 * time.Millisecond})
	return e
}

// run calls the action as the agent would, in the background.
func (e *env) run(ctx context.Context, args map[string]string) (*call, <-chan result) {
	e.n++
	c := &call{paused: make(chan runtime.RunPaused, 1)}
	raw, _ := json.Marshal(args)
	out := make(chan result, 1)
	id := "call" + string(rune('0'+e.n))
	go func() {
		text, err := e.act.Handler(ctx, runtime.Call{ID: id, Args: raw, Callback: c.callback, Report: c.report,
			ConversationID: "c", RunID: "run"})
		out <- result{text, err}
	}()
	return c, out
}

type result struct {
	text string
	err  error
}

func TestApprovedCommandRuns(t *testing.T) {
	e := newEnv(t, 0)
	c, out := e.run(context.Background(), map[string]string{"command": "printf 'hi\\n'", "reason": "say hi"})
	p := <-c.paused
	var asked wire.Approval
	if err := json.Unmarshal(p.Approval, &asked); err != nil || asked.Command != "printf 'hi\\n'" || asked.Reason != "say hi" ||
		strings.Join(asked.Bases, ",") != "printf" || strings.Join(asked.Grantable, ",") != "printf" {
		t.Fatalf("asked %+v (%v)", asked, err)
	}
	if _, err := e.approvals.Decide(context.Background(), p.ApprovalID, approval.Decision{Decision: store.DecisionApproveAlways, Note: ""}); err != nil {
		t.Fatal(err)
	}
	r := <-out
	if r.err != nil || !strings.HasPrefix(r.text, "Exit code: 0\nOutput:\nhi") {
		t.Fatalf("result %q, %v", r.text, r.err)
	}
	if got := strings.Join(c.statuses(), " "); got != "waiting paused resumed:approve_always executing" {
		t.Fatalf("statuses: %s", got)
	}
	last := c.callbacks[len(c.callbacks)-1]
	if !strings.HasPrefix(last, "✓ ` printf 'hi\\n' ` exited 0 in ") || !strings.Contains(last, "```\nhi\n```") {
		t.Fatalf("last callback %q", last)
	}

	// printf is granted now: the next one runs without asking; with rm in it, it asks.
	c2, out2 := e.run(context.Background(), map[string]string{"command": "printf x", "reason": "again"})
	if r := <-out2; r.err != nil || !strings.Contains(r.text, "x") {
		t.Fatalf("granted run %q, %v", r.text, r.err)
	}
	if got := strings.Join(c2.statuses(), " "); got != "executing" {
		t.Fatalf("granted run statuses: %s", got)
	}
	c3, out3 := e.run(context.Background(), map[string]string{"command": "printf x; rm -f y", "reason": "and clean"})
	p3 := <-c3.paused
	if _, err := e.approvals.Decide(context.Background(), p3.ApprovalID, approval.Decision{Decision: store.DecisionDeny, Note: "not now"}); err != nil {
		t.Fatal(err)
	}
	if r := <-out3; r.err == nil || !strings.Contains(r.err.Error(), "declined") || !strings.Contains(r.err.Error(), "not now") {
		t.Fatalf("denied run %q, %v", r.text, r.err)
	}
}

func TestStoppedWhileWaitingCancelsTheApproval(t *testing.T) {
	e := newEnv(t, 0)
	ctx, cancel := context.WithCancelCause(context.Background())
	c, out := e.run(ctx, map[string]string{"command": "rm -rf /tmp/nothing-here", "reason": "clean"})
	p := <-c.paused
	cancel(errors.New("stopped by the user"))
	if r := <-out; r.err == nil {
		t.Fatal("a stopped call succeeded")
	}
	if a, _ := e.st.Approval(context.Background(), p.ApprovalID); a.Status != store.ApprovalCancelled {
		t.Fatalf("approval %s after a stop", a.Status)
	}
	if _, err := e.approvals.Decide(context.Background(), p.ApprovalID, approval.Decision{Decision: store.DecisionApprove, Note: ""}); err == nil {
		t.Fatal("a cancelled approval was decided")
	}
}

func TestShutdownKeepsTheApprovalPending(t *testing.T) {
	e := newEnv(t, 0)
	ctx, cancel := context.WithCancelCause(context.Background())
	c, out := e.run(ctx, map[string]string{"command": "rm x", "reason": "clean"})
	p := <-c.paused
	cancel(runtime.ErrShutdown)
	<-out
	if a, _ := e.st.Approval(context.Background(), p.ApprovalID); a.Status != store.ApprovalPending {
		t.Fatalf("approval %s after a shutdown, want pending", a.Status)
	}
}

func TestTimeoutKillsTheGroupAndLongOutputIsCut(t *testing.T) {
	e := newEnv(t, 300*time.Millisecond)
	grant(t, e, "sh", "head", "tr", "sleep")
	// A child in the background would outlive a kill of the shell alone.
	_, out := e.run(context.Background(), map[string]string{"command": "sleep 30 & sleep 30", "reason": "wait"})
	r := <-out
	if r.err != nil || !strings.Contains(r.text, "ran out of time") {
		t.Fatalf("timed-out run %q, %v", r.text, r.err)
	}
	_, out = e.run(context.Background(), map[string]string{"command": "head -c 100000 /dev/zero | tr '\\0' a", "reason": "lots"})
	r = <-out
	if r.err != nil || !strings.Contains(r.text, "cut") || len(r.text) > ResultBytes+200 {
		t.Fatalf("long output: %d bytes, %v", len(r.text), r.err)
	}
}

// grant allows bases, as an approve_always would.
func grant(t *testing.T, e *env, bases ...string) {
	t.Helper()
	if err := e.st.AddGrants(context.Background(), store.GrantShell, bases, time.Now()); err != nil {
		t.Fatal(err)
	}
}

func TestBadArguments(t *testing.T) {
	e := newEnv(t, 0)
	for _, args := range []map[string]string{
		{"reason": "none"},
		{"command": "ls", "cwd": "relative/dir"},
		{"command": "ls", "cwd": "/does/not/exist"},
		{"command": strings.Repeat("x", MaxCommandBytes+1)},
	} {
		_, out := e.run(context.Background(), args)
		if r := <-out; r.err == nil {
			t.Errorf("%v was accepted", args)
		}
	}
}

func TestAlwaysAllowGrantsTheBasesChosen(t *testing.T) {
	e := newEnv(t, 0)
	c, out := e.run(context.Background(), map[string]string{"command": "printf x; ls", "reason": "two"})
	p := <-c.paused
	ctx := context.Background()
	if _, err := e.approvals.Decide(ctx, p.ApprovalID, approval.Decision{Decision: store.DecisionApproveAlways, Bases: []string{"rm"}}); err == nil {
		t.Fatal("a base the command does not hold was granted")
	}
	if _, err := e.approvals.Decide(ctx, p.ApprovalID, approval.Decision{Decision: store.DecisionApproveAlways, Bases: []string{"ls"}}); err != nil {
		t.Fatal(err)
	}
	if r := <-out; r.err != nil {
		t.Fatalf("approved run: %v", r.err)
	}
	grants, _ := e.st.Grants(ctx)
	if len(grants) != 1 || grants[0].Base != "ls" {
		t.Fatalf("grants %+v, want only ls", grants)
	}
}

// Grants are checked with a Bash parser: under another shell (zsh reads globs and
// more its own way) every command asks, and none can be granted.
func TestGrantsHoldOnlyForBashLikeShells(t *testing.T) {
	for _, shell := range []string{"/usr/bin/zsh", "/bin/dash"} {
		grantsAsk(t, shell)
	}
}

// grantsAsk: under shell a granted command asks, saying why.
func grantsAsk(t *testing.T, shell string) {
	e := newEnvShell(t, 0, shell)
	grant(t, e, "printf")
	c, out := e.run(context.Background(), map[string]string{"command": "printf x", "reason": "granted under bash"})
	p := <-c.paused
	var asked wire.Approval
	if err := json.Unmarshal(p.Approval, &asked); err != nil || len(asked.Grantable) != 0 ||
		len(asked.AlwaysAsk) != 1 || !strings.Contains(asked.AlwaysAsk[0], filepath.Base(shell)) {
		t.Fatalf("asked %+v (%v)", asked, err)
	}
	if _, err := e.approvals.Decide(context.Background(), p.ApprovalID, approval.Decision{Decision: store.DecisionDeny}); err != nil {
		t.Fatal(err)
	}
	<-out
}
