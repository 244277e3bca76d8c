package approval

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime"
)

// guarded is a Guarded action of the shell kind whose runs are counted: its
// arguments are {"cmd": "…"}, its base the command's first word.
type guarded struct {
	svc  *Service
	st   *store.Store
	act  runtime.Action
	ran  atomic.Int32
	hold atomic.Bool // whether grants hold (confinement)
}

func newGuarded(t *testing.T) *guarded {
	t.Helper()
	g := &guarded{st: storetest.Open(t, "c", "r1", "r2")}
	g.hold.Store(true)
	g.svc = New(Options{Store: g.st, Events: &published{}, GrantsHold: func() (bool, string) {
		return g.hold.Load(), "agent commands are not confined (no Landlock)"
	}})
	type args struct{ Cmd string }
	g.act = Guard(g.svc, Guarded[args]{
		Action: runtime.Action{Name: "RUN"},
		Check: func(_ context.Context, call runtime.Call) (args, Request, error) {
			var a args
			if err := json.Unmarshal(call.Args, &a); err != nil || a.Cmd == "" {
				return a, Request{}, errors.New("cmd is required")
			}
			req := Request{Detail: Command{Command: a.Cmd, Cwd: "/tmp"}, Bases: []string{strings.Fields(a.Cmd)[0]}}
			if strings.Contains(a.Cmd, "sudo") {
				req.AlwaysAsk = []string{"sudo runs anything"}
			}
			return a, req, nil
		},
		Run: func(context.Context, runtime.Call, args) (string, error) {
			g.ran.Add(1)
			return "ran", nil
		},
	})
	return g
}

// outcome is how a call ended, and what it reported.
type outcome struct {
	text    string
	err     error
	pauses  []runtime.RunPaused
	resumes []runtime.RunResumed
}

// call calls the action as a run's turn would; decide, when set, answers its pause.
func (g *guarded) call(ctx context.Context, run, id, cmd string, decide func(p runtime.RunPaused)) outcome {
	var mu sync.Mutex
	var o outcome
	c := runtime.Call{ID: id, RunID: run, ConversationID: "c", Args: json.RawMessage(`{"cmd":` + quote(cmd) + `}`),
		Callback: func(string, runtime.Merge) {},
		Report: func(ev runtime.Event) {
			mu.Lock()
			defer mu.Unlock()
			switch d := ev.Data.(type) {
			case runtime.RunPaused:
				o.pauses = append(o.pauses, d)
				if decide != nil {
					go decide(d)
				}
			case runtime.RunResumed:
				o.resumes = append(o.resumes, d)
			}
		}}
	text, err := g.act.Handler(ctx, c)
	mu.Lock()
	defer mu.Unlock()
	o.text, o.err = text, err
	return o
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// decides is a pause answer that takes decision.
func (g *guarded) decides(t *testing.T, decision string) func(runtime.RunPaused) {
	return func(p runtime.RunPaused) {
		if _, err := g.svc.Decide(context.Background(), p.ApprovalID, Decision{Decision: decision, Note: "because"}); err != nil {
			t.Errorf("decide: %v", err)
		}
	}
}

func TestGuardAsksRunsAndGrants(t *testing.T) {
	g := newGuarded(t)
	ctx := context.Background()
	if o := g.call(ctx, "r1", "call-1", "ls -l", g.decides(t, store.DecisionDeny)); o.err == nil ||
		!strings.Contains(o.err.Error(), "declined to run this command, and said: because") || g.ran.Load() != 0 {
		t.Fatalf("denied: %+v, ran %d", o, g.ran.Load())
	}
	if o := g.call(ctx, "r1", "call-2", "ls -l", g.decides(t, store.DecisionApproveAlways)); o.err != nil || o.text != "ran" ||
		len(o.pauses) != 1 || len(o.resumes) != 1 || g.ran.Load() != 1 {
		t.Fatalf("approved: %+v, ran %d", o, g.ran.Load())
	}
	// Granted now: it runs without asking, in another run too.
	if o := g.call(ctx, "r2", "call-3", "ls /", nil); o.err != nil || len(o.pauses) != 0 || g.ran.Load() != 2 {
		t.Fatalf("granted: %+v", o)
	}
	// What always asks asks, granted or not, and offers no grant.
	o := g.call(ctx, "r2", "call-4", "ls; sudo rm", g.decides(t, store.DecisionApprove))
	var asked wire.Approval
	_ = json.Unmarshal(o.pauses[0].Approval, &asked)
	if o.err != nil || len(asked.Grantable) != 0 || len(asked.AlwaysAsk) != 1 || g.ran.Load() != 3 {
		t.Fatalf("always asks: %+v, asked %+v", o, asked)
	}
	// A call the Check refuses asks nobody.
	if o := g.call(ctx, "r2", "call-5", "", nil); o.err == nil || len(o.pauses) != 0 {
		t.Fatalf("refused: %+v", o)
	}
}

// While the agent's commands are not fully confined, grants do not hold: a granted
// call asks, saying why, and offers no grant.
func TestGuardAsksWhenGrantsDoNotHold(t *testing.T) {
	g := newGuarded(t)
	if err := g.st.AddGrants(context.Background(), store.GrantShell, []string{"ls"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	g.hold.Store(false)
	o := g.call(context.Background(), "r1", "call-1", "ls", g.decides(t, store.DecisionApprove))
	var asked wire.Approval
	if len(o.pauses) != 1 || json.Unmarshal(o.pauses[0].Approval, &asked) != nil {
		t.Fatalf("a granted call did not ask: %+v", o)
	}
	if len(asked.Grantable) != 0 || len(asked.AlwaysAsk) != 1 || !strings.Contains(asked.AlwaysAsk[0], "not confined") {
		t.Errorf("asked %+v", asked)
	}
	g.hold.Store(true)
	if o := g.call(context.Background(), "r1", "call-2", "ls", nil); len(o.pauses) != 0 || o.err != nil {
		t.Errorf("confined again, the grant holds: %+v", o)
	}
}

// The attacker's moves: a call id the model repeats, in the same run or another, with
// other arguments, never finds an approval that releases it.
func TestADecisionReleasesOnlyItsCall(t *testing.T) {
	g := newGuarded(t)
	ctx := context.Background()
	if o := g.call(ctx, "r1", "call_0", "printf safe", g.decides(t, store.DecisionApprove)); o.err != nil || g.ran.Load() != 1 {
		t.Fatalf("first: %+v", o)
	}
	// The same id for other arguments in the same run: refused, nothing runs.
	o := g.call(ctx, "r1", "call_0", "touch x", nil)
	if fault.KindOf(o.err) != fault.Conflict || len(o.pauses) != 0 || g.ran.Load() != 1 {
		t.Fatalf("repeated id, other arguments: %+v, ran %d", o, g.ran.Load())
	}
	// The same id in another run asks anew.
	if o := g.call(ctx, "r2", "call_0", "touch x", g.decides(t, store.DecisionDeny)); len(o.pauses) != 1 || g.ran.Load() != 1 {
		t.Fatalf("repeated id in another run: %+v", o)
	}
	// The same call again (a resume after a restart) finds its decision, asks nothing.
	if o := g.call(ctx, "r1", "call_0", "printf safe", nil); o.err != nil || len(o.pauses) != 0 || g.ran.Load() != 2 {
		t.Fatalf("the same call again: %+v", o)
	}
}

// A stop while the user is asked cancels the approval and runs nothing; a decision
// that comes as Wisp shuts down runs nothing either, and leaves the run to go on
// after the next start.
func TestGuardNeverRunsAfterAStop(t *testing.T) {
	g := newGuarded(t)
	stopped := errors.New("stopped by the user")
	ctx, cancel := context.WithCancelCause(context.Background())
	o := g.call(ctx, "r1", "call-1", "ls", func(runtime.RunPaused) { cancel(stopped) })
	if !errors.Is(o.err, stopped) || g.ran.Load() != 0 {
		t.Fatalf("stopped: %+v", o)
	}
	if pending, _ := g.svc.Pending(context.Background()); len(pending) != 0 {
		t.Errorf("still pending after a stop: %+v", pending)
	}

	ctx, cancel = context.WithCancelCause(context.Background())
	o = g.call(ctx, "r2", "call-2", "ls", func(p runtime.RunPaused) {
		cancel(runtime.ErrShutdown)
		g.decides(t, store.DecisionApprove)(p)
	})
	if !errors.Is(o.err, runtime.ErrShutdown) || g.ran.Load() != 0 || len(o.resumes) != 0 {
		t.Fatalf("decided as Wisp stopped: %+v, ran %d", o, g.ran.Load())
	}
}

// Once Wisp is stopping, decisions wait for the next start: the approval stays
// pending.
func TestNoDecisionWhileStopping(t *testing.T) {
	g := newGuarded(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	var id string
	o := g.call(ctx, "r1", "call-1", "ls", func(p runtime.RunPaused) {
		id = p.ApprovalID
		g.svc.Close()
		_, err := g.svc.Decide(context.Background(), p.ApprovalID, Decision{Decision: store.DecisionApprove})
		if fault.KindOf(err) != fault.Unavailable {
			t.Errorf("decision while stopping: %v", err)
		}
		cancel(runtime.ErrShutdown)
	})
	if !errors.Is(o.err, runtime.ErrShutdown) || g.ran.Load() != 0 {
		t.Fatalf("%+v", o)
	}
	if pending, _ := g.svc.Pending(context.Background()); len(pending) != 1 || pending[0].ID != id {
		t.Errorf("pending = %+v", pending)
	}
}
