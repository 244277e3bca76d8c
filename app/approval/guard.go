package approval

import (
	"context"
	"errors"
	"fmt"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// Guarded is an action that touches the user's machine or data: a kind of call (a
// shell command, an MCP tool) that runs only once the user allowed it or a grant of
// theirs covers it. Guard makes it the agent's action; it owns the consent: the grant
// check, the question, the wait, the resume after a restart and what the model is
// told. The kind only reads a call and does it.
type Guarded[A any] struct {
	// Action is what the model is offered; its Handler is Guard's.
	runtime.Action
	// Check reads a call's arguments (A) and says what the user is asked about it.
	// An error refuses the call before anyone is asked.
	Check func(ctx context.Context, call runtime.Call) (A, Request, error)
	// Run does what was allowed.
	Run func(ctx context.Context, call runtime.Call, args A) (string, error)
	// Edited, for a kind whose approval the user may decide with an edit of what it
	// proposes (a memo: Decision.Text), is the arguments to run with their edit.
	Edited func(args A, text string) A
}

// Request is what a call asks the user: what it does, the bases a grant may cover
// (every one must be granted for the call to go on unasked), and why no grant ever
// can (then it always asks).
type Request struct {
	Detail    Detail
	Bases     []string
	AlwaysAsk []string
	// Allowed says a setting of the user's (never the model's) lets such calls run
	// without asking: memory.autoSave for a memo. The call runs unasked, unless it
	// was asked already (a run resumed after a restart keeps its decision).
	Allowed bool
}

// Guard returns g as the agent's action: every call is checked, asked (unless grants
// cover it) and run only after a yes, never after a stop.
func Guard[A any](s *Service, g Guarded[A]) runtime.Action {
	act := g.Action
	act.Handler = func(ctx context.Context, call runtime.Call) (string, error) {
		args, req, err := g.Check(ctx, call)
		if err != nil {
			return "", err
		}
		if req.Allowed {
			_, err := s.opts.Store.ApprovalOf(context.WithoutCancel(ctx), call.RunID, call.ID)
			if errors.Is(err, store.ErrNotFound) {
				return g.Run(ctx, call, args)
			}
			if err != nil {
				return "", err
			}
		}
		ask, covered, err := s.ask(ctx, call, act.Name, req)
		if err != nil {
			return "", err
		}
		if err := s.gate(ctx, call, ask, covered); err != nil {
			return "", err
		}
		if ctx.Err() != nil { // stopped as it was allowed: it never starts
			return "", fmt.Errorf("stopped before it ran: %w", context.Cause(ctx))
		}
		if g.Edited != nil && !covered {
			ap, err := s.opts.Store.ApprovalOf(context.WithoutCancel(ctx), call.RunID, call.ID)
			if err != nil {
				return "", err
			}
			if ap.EditedText != "" {
				args = g.Edited(args, ap.EditedText)
			}
		}
		return g.Run(ctx, call, args)
	}
	return act
}

// runGranted are the bases of a kind the run's own grants cover.
func (s *Service) runGranted(ctx context.Context, runID, kind string) (map[string]bool, error) {
	if s.opts.RunGrants == nil {
		return nil, nil
	}
	grants, err := s.opts.RunGrants(context.WithoutCancel(ctx), runID)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, g := range grants {
		if string(g.Kind) == kind {
			out[g.Base] = true
		}
	}
	return out, nil
}

// ask is the question a call would put to the user, and whether grants cover it:
// nothing in it always asks, grants hold now, and every base is granted.
func (s *Service) ask(ctx context.Context, call runtime.Call, tool string, req Request) (Ask, bool, error) {
	a := Ask{Header: Header{RunID: call.RunID, ConversationID: call.ConversationID, CallID: call.ID, ToolName: tool,
		Args: call.Args, Bases: req.Bases, AlwaysAsk: req.AlwaysAsk}, Detail: req.Detail}
	if hold, why := s.opts.GrantsHold(); !hold && len(a.AlwaysAsk) == 0 {
		a.AlwaysAsk = []string{why}
	}
	if len(a.AlwaysAsk) > 0 {
		return a, false, nil
	}
	granted, err := s.Granted(context.WithoutCancel(ctx), req.Detail.Kind())
	if err != nil {
		return a, false, err
	}
	scoped, err := s.runGranted(ctx, call.RunID, req.Detail.Kind())
	if err != nil {
		return a, false, err
	}
	for _, b := range a.Bases {
		if !granted(b) && !scoped[b] {
			a.Grantable = append(a.Grantable, b)
		}
	}
	return a, len(a.Bases) > 0 && len(a.Grantable) == 0, nil
}
