package app

import (
	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/shell"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// newApprovals builds the approvals of the agent's commands and MCP calls. A
// decision on a run that paused before a restart resumes it in chat (a cancelled
// one stops it).
func (a *App) newApprovals(st *store.Store, c *chat.Service) *approval.Service {
	return approval.New(approval.Options{
		Store: st, Events: a.events, Logger: a.log.With("component", "approvals"), GrantsHold: a.grantsHold,
		RunGrants: a.taskRunGrants,
		OnDecided: func(ap wire.Approval) {
			goOn := c.ResumePaused
			if ap.Status == store.ApprovalCancelled {
				goOn = c.StopPaused
			}
			if err := goOn(ap.RunID); err != nil {
				a.log.Debug("no paused run to resume", "run", ap.RunID, "err", err)
			}
		},
	})
}

// shellAction is the agent's shell action: its commands wait for an approval and run
// in the terminal while shell access is on.
func (a *App) shellAction(approvals *approval.Service) runtime.Action {
	act := shell.Action(shell.Options{Approvals: approvals, Terminal: a.shellTerminal,
		Logger: a.log.With("component", "shell")})
	act.Available = func() bool { return a.shellTerminal() != nil }
	return act
}

// shellTerminal is the terminal the shell action runs in, nil while shell access is
// off (or before the services are up).
func (a *App) shellTerminal() *terminal.Manager {
	s := a.svc.Load()
	if s == nil || !s.termGate.Enabled() {
		return nil
	}
	return s.term
}

// grantsHold says whether standing grants may cover the agent's calls: only while
// its commands and MCP servers are fully confined (confinement). Otherwise every call
// asks, and the card says why.
func (a *App) grantsHold() (bool, string) {
	level, reason := a.confinement()
	if level == "full" {
		return true, ""
	}
	return false, "standing grants are off while agent commands are not fully confined: " + reason
}
