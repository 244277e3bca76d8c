// Package approval asks the user before the agent runs a shell command, calls an
// MCP tool or saves a note to their memory, and keeps what they allowed for good:
// base commands and tools (docs/approvals.md, docs/memory.md). An approval is
// decided once, by compare-and-swap in SQLite; whoever waits for it in this process
// is woken, and a run that paused before a restart is handed to OnDecided.
package approval

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/internal/jsonlist"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// MaxNoteRunes caps the note a user sends the model with a decision.
const MaxNoteRunes = 2000

// Options are what the service needs.
type Options struct {
	Store  *store.Store
	Events wire.Events
	Logger *slog.Logger
	// OnDecided is called after a decision nobody in this process was waiting for:
	// the run paused before a restart, and goes on now (or stops, for a cancelled
	// approval: see HandOver).
	OnDecided func(a wire.Approval)
	// GrantsHold says whether standing grants may cover calls now, and if not why
	// (the agent's commands are not fully confined): then every call asks. Default:
	// they hold.
	GrantsHold func() (hold bool, why string)
	// RunGrants are the standing grants of the run's own (a scheduled task's: they
	// cover its runs only), beside the user's grants; nil: none.
	RunGrants func(ctx context.Context, runID string) ([]wire.TaskGrant, error)
}

// Service keeps approvals and grants.
type Service struct {
	opts Options
	mu   sync.Mutex
	// waiters are closed when their approval is decided or cancelled.
	waiters map[string]chan struct{}
	closing bool // Wisp is stopping: decisions wait for the next start
}

// New builds the service.
func New(opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.OnDecided == nil {
		opts.OnDecided = func(wire.Approval) {}
	}
	if opts.GrantsHold == nil {
		opts.GrantsHold = func() (bool, string) { return true, "" }
	}
	return &Service{opts: opts, waiters: map[string]chan struct{}{}}
}

// request returns the approval of the call, asking the user (approval-requested)
// if it was not asked before: a run resumed after a restart finds its approval again
// (asked is then false). An approval found for the call releases nothing unless it
// was asked for this very call: the same kind, tool, conversation and arguments.
func (s *Service) request(ctx context.Context, a Ask) (ap wire.Approval, asked bool, err error) {
	binding := a.binding()
	if old, err := s.opts.Store.ApprovalOf(ctx, a.RunID, a.CallID); err == nil {
		if old.Binding != binding || old.ToolName != a.ToolName || old.ConversationID != a.ConversationID {
			s.opts.Logger.Warn("an approval was asked for another call", "approval", old.ID, "run", a.RunID, "call", a.CallID)
			return wire.Approval{}, false, fault.Conflict.Errorf("call %s already has an approval, for another action or other arguments: nothing runs", a.CallID)
		}
		return toWire(old), false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return wire.Approval{}, false, err
	}
	req, err := json.Marshal(a.request())
	if err != nil {
		return wire.Approval{}, false, fault.Invalid.Errorf("the call's arguments are not JSON: %v", err)
	}
	row := store.Approval{ID: "ap_" + ids.New(), RunID: a.RunID, ConversationID: a.ConversationID, CallID: a.CallID,
		ToolName: a.ToolName, Request: req, Binding: binding, Status: store.ApprovalPending, CreatedAt: time.Now()}
	if err := s.opts.Store.AddApproval(ctx, row); err != nil {
		return wire.Approval{}, false, err
	}
	// Read back: the approval names its run's user message (its branch), from the run.
	if saved, err := s.opts.Store.Approval(ctx, row.ID); err == nil {
		row = saved
	}
	out := toWire(row)
	s.opts.Events.Publish(wire.NewApprovalRequested(out))
	return out, true, nil
}

// Wait returns the approval once it is no longer pending, or the context's error.
func (s *Service) Wait(ctx context.Context, id string) (wire.Approval, error) {
	for {
		s.mu.Lock()
		ch, ok := s.waiters[id]
		if !ok {
			ch = make(chan struct{})
			s.waiters[id] = ch
		}
		s.mu.Unlock()
		// Read after registering: a decision from now on closes ch.
		row, err := s.opts.Store.Approval(ctx, id)
		if err != nil {
			return wire.Approval{}, err
		}
		if row.Status != store.ApprovalPending {
			return toWire(row), nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return toWire(row), ctx.Err()
		}
	}
}

// Decision is what the user answers. Bases, with approve_always, are the bases to
// grant (each one the approval could grant); none means all of them.
type Decision struct {
	Decision string
	Note     string
	Bases    []string
	// Text, only for an approval of kind memory and only with approve, is the user's
	// edit of the proposed note: that is what is saved (bounded like the proposal).
	Text *string
}

// Decide records the user's decision. Exactly one decision wins: a later one gets a
// fault.Conflict error with the approval as decided. approve_always grants the bases
// asked for (by default every base the approval could grant) and runs the command.
func (s *Service) Decide(ctx context.Context, id string, d Decision) (wire.Approval, error) {
	decision, note := d.Decision, d.Note
	switch decision {
	case store.DecisionApprove, store.DecisionApproveAlways, store.DecisionDeny:
	default:
		return wire.Approval{}, fault.Invalid.Errorf(`decision must be "approve", "approve_always" or "deny"`)
	}
	if utf8.RuneCountInString(note) > MaxNoteRunes {
		return wire.Approval{}, fault.Invalid.Errorf("note is longer than %d characters", MaxNoteRunes)
	}
	var edited string
	if d.Text != nil {
		if decision != store.DecisionApprove {
			return wire.Approval{}, fault.Invalid.Errorf(`text goes only with the decision "approve" (save as edited)`)
		}
		text, err := CheckMemo(*d.Text)
		if err != nil {
			return wire.Approval{}, fault.Invalid.Errorf("text: %v", err)
		}
		edited = text
	}
	if s.isClosing() {
		return wire.Approval{}, fault.Unavailable.Errorf("Wisp is stopping: decide once it has started again (the run waits)")
	}
	row, err := s.opts.Store.Approval(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.Approval{}, fault.NotFound.Errorf("no approval %s", id)
	}
	if err != nil {
		return wire.Approval{}, err
	}
	req := requestOf(row)
	if d.Text != nil && req.kind() != string(wire.KindMemory) {
		return wire.Approval{}, fault.Invalid.Errorf("text is only for an approval of a note to remember, not of kind %s", req.kind())
	}
	grants, err := chosenBases(req.Grantable, d.Bases)
	if err != nil {
		return wire.Approval{}, err
	}
	if d.Text != nil {
		row, err = s.opts.Store.DecideApprovalEdited(ctx, id, note, edited, time.Now())
	} else {
		row, err = s.opts.Store.DecideApproval(ctx, id, decision, note, time.Now(), req.kind(), grants)
	}
	if errors.Is(err, store.ErrDecided) {
		out := toWire(row)
		if row.Status == store.ApprovalCancelled {
			return out, fault.Conflict.Errorf("the run waiting for this approval was stopped")
		}
		return out, fault.Conflict.Errorf("this approval was already decided: %s", row.Decision)
	}
	if err != nil {
		return wire.Approval{}, err
	}
	out := toWire(row)
	s.opts.Events.Publish(wire.NewApprovalDecided(out))
	if !s.wake(id) {
		s.opts.OnDecided(out)
	}
	return out, nil
}

// Close refuses decisions from now on: Wisp is stopping, and a run told to go on now
// could start its command as it is stopped. The approvals stay pending, and their
// paused runs wait for a decision after the next start.
func (s *Service) Close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
}

func (s *Service) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Cancel ends a pending approval whose run was stopped.
func (s *Service) Cancel(ctx context.Context, id string) {
	ok, err := s.opts.Store.CancelApproval(ctx, id, time.Now())
	if err != nil {
		s.opts.Logger.Warn("cannot cancel an approval", "approval", id, "err", err)
		return
	}
	s.wake(id)
	if !ok {
		return
	}
	if row, err := s.opts.Store.Approval(ctx, id); err == nil {
		s.opts.Events.Publish(wire.NewApprovalDecided(toWire(row)))
	}
}

// HandOver acts, at start, on what a previous process decided but did not get to
// act on, so that no card shows a decision that never took effect. A decision made
// just before Wisp died (between the compare-and-swap and the run going on) is handed
// to OnDecided for its paused run, as a decision after a restart is: approved, the
// call runs once; denied, the model is told; cancelled, the run stops. A pending
// approval whose run is over (it ended before it could pause) is cancelled: nobody
// could act on its decision.
func (s *Service) HandOver(ctx context.Context) error {
	orphans, err := s.opts.Store.CancelOrphanedApprovals(ctx, time.Now())
	if err != nil {
		return err
	}
	for _, a := range orphans {
		s.opts.Logger.Info("cancelled an approval whose run is over", "approval", a.ID, "run", a.RunID)
		s.opts.Events.Publish(wire.NewApprovalDecided(toWire(a)))
	}
	unheard, err := s.opts.Store.UnheardDecisions(ctx)
	if err != nil {
		return err
	}
	for _, a := range unheard {
		s.opts.Logger.Info("a paused run goes on with a decision made before a restart",
			"approval", a.ID, "run", a.RunID, "status", a.Status)
		s.opts.OnDecided(toWire(a))
	}
	return nil
}

// wake closes the waiter of an approval; false when nobody waited.
func (s *Service) wake(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.waiters[id]
	if ok {
		close(ch)
		delete(s.waiters, id)
	}
	return ok
}

// Pending lists the approvals waiting for the user, oldest first.
func (s *Service) Pending(ctx context.Context) ([]wire.Approval, error) {
	rows, err := s.opts.Store.PendingApprovals(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Approval, len(rows))
	for i, r := range rows {
		out[i] = toWire(r)
	}
	return out, nil
}

// Granted reports the bases of a kind granted now, for grant checks.
func (s *Service) Granted(ctx context.Context, kind string) (func(base string) bool, error) {
	grants, err := s.opts.Store.Grants(ctx)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(grants))
	for _, g := range grants {
		if g.Kind == kind {
			set[g.Base] = true
		}
	}
	return func(b string) bool { return set[b] }, nil
}

// Grants lists the grants, by base.
func (s *Service) Grants(ctx context.Context) ([]wire.Grant, error) {
	grants, err := s.opts.Store.Grants(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]wire.Grant, len(grants))
	for i, g := range grants {
		out[i] = wire.Grant{ID: g.ID, Kind: wire.ApprovalKind(g.Kind), Base: g.Base, CreatedAt: wire.ISOTime(g.CreatedAt)}
	}
	return out, nil
}

// RevokeGrant deletes a grant.
func (s *Service) RevokeGrant(ctx context.Context, id string) error {
	err := s.opts.Store.DeleteGrant(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fault.NotFound.Errorf("no grant %s", id)
	}
	return err
}

// chosenBases are the bases to grant: those asked for, each grantable, or all.
func chosenBases(grantable, asked []string) ([]string, error) {
	if len(asked) == 0 {
		return grantable, nil
	}
	for _, b := range asked {
		if !slices.Contains(grantable, b) {
			return nil, fault.Invalid.Errorf("%q is not a base command this approval can grant", b)
		}
	}
	return asked, nil
}

func requestOf(a store.Approval) request {
	var r request
	_ = json.Unmarshal(a.Request, &r)
	return r
}

func toWire(a store.Approval) wire.Approval {
	r := requestOf(a)
	out := wire.Approval{ID: a.ID, RunID: a.RunID, ConversationID: a.ConversationID, MessageID: a.MessageID, CallID: a.CallID,
		ToolName: a.ToolName, Command: r.Command, Cwd: r.Cwd, Reason: r.Reason, Bases: jsonlist.NonNil(r.Bases),
		Grantable: jsonlist.NonNil(r.Grantable), AlwaysAsk: jsonlist.NonNil(r.AlwaysAsk), Kind: wire.ApprovalKind(r.kind()),
		Server: r.Server, Tool: r.Tool, Arguments: r.Arguments, Annotations: r.Annotations,
		ToolTitle: r.ToolTitle, ToolDescription: r.ToolDescription, Status: wire.ApprovalStatus(a.Status), Note: a.Note,
		Text: r.Text, URL: r.URL, Path: r.Path, Root: r.Root, Diff: r.Diff, Schedule: r.Schedule,
		CreatedAt: wire.ISOTime(a.CreatedAt)}
	if a.EditedText != "" {
		out.Text = a.EditedText
	}
	if len(out.Arguments) == 0 {
		out.Arguments = json.RawMessage("null")
	}
	if a.Decision != "" {
		d := wire.ApprovalDecision(a.Decision)
		out.Decision = &d
	}
	if !a.DecidedAt.IsZero() {
		at := wire.ISOTime(a.DecidedAt)
		out.DecidedAt = &at
	}
	return out
}
