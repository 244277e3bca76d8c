package app

import (
	"errors"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
	"github.com/wispapp/wisp/terminal"
)

// newTerminal builds the shell runner and its gate for the settings.
func (a *App) newTerminal(cfg config.Config) (*terminal.Manager, *api.TerminalGate) {
	return a.newTerminalManager(cfg), a.newTerminalGate(cfg)
}

// newTerminalManager builds the shell runner. Its events go to the sockets of the
// run's client (or to everyone for the agent's runs); the agent's runs start confined.
func (a *App) newTerminalManager(cfg config.Config) *terminal.Manager {
	t := cfg.Terminal
	return terminal.NewManager(terminal.Options{
		Dir:           t.Cwd,
		Secrets:       secretEnv(),
		PATH:          a.terminalPATH(),
		Confine:       a.confiner.Start,
		MaxConcurrent: t.MaxConcurrent,
		MaxDuration:   time.Duration(t.MaxDurationMs) * time.Millisecond,
		Sink:          a.sendTerminalEvent,
		Ready:         a.terminalViewersReady,
		Logger:        a.log.With("component", "terminal"),
	})
}

// newTerminalGate decides who may run commands under the settings.
func (a *App) newTerminalGate(cfg config.Config) *api.TerminalGate {
	return api.NewTerminalGate(cfg.Features.ShellEnabled, cfg.API.Token != "", cfg.API.TerminalToken)
}

// sendTerminalEvent is the terminal's sink: its events go out as terminal-output
// frames, to the hub and the run's followers. It runs on the run's delivering
// goroutine, with no lock of the run held; it never blocks (the hub queues).
func (a *App) sendTerminalEvent(e terminal.Event) {
	f := wire.NewTerminalOutput(e.RunID, e.Owner, e.Seq, wire.TerminalEvent(e.Kind))
	f.Command, f.MaxDurationMs, f.Code, f.Data = e.Command, e.MaxDurationMs, e.Code, e.Data
	a.events.Publish(f)
}

// terminalBacklog is how far a run's viewers may fall behind before its output waits
// for them (see terminal.Options.Ready): well under the hub's per-client byte limit.
const terminalBacklog = 2 << 20

// terminalViewersReady is the terminal's flow control. When owner's viewers are
// behind, the run waits for the hub's next progress, taken before the second look so
// that none is missed.
func (a *App) terminalViewersReady(owner string) (bool, <-chan struct{}) {
	viewers := terminalViewers(owner)
	if a.core.hub.Backlog(viewers) < terminalBacklog {
		return true, nil
	}
	progress := a.core.hub.Progress()
	return a.core.hub.Backlog(viewers) < terminalBacklog, progress
}

// terminalRun is the run a terminal frame is for, when shell access is on.
func (a *App) terminalRun(runID string) (*terminal.Run, error) {
	s := a.svc.Load()
	if !s.termGate.Enabled() {
		return nil, errors.New("shell access is disabled")
	}
	run, err := s.term.Get(runID)
	if err != nil {
		return nil, fmt.Errorf("no such terminal run: %.64s", runID)
	}
	return run, nil
}

// terminalInput handles a terminal-input frame (the hub decoded it).
func (a *App) terminalInput(c ws.Client, frame wire.Frame) error {
	f := frame.(wire.TerminalInput)
	run, err := a.terminalRun(f.RunID)
	if err != nil {
		return err
	}
	if err := a.svc.Load().termGate.Check(f.TerminalToken); err != nil {
		return err
	}
	return run.Input(c.ClientID, f.Data)
}

// terminalResize handles a terminal-resize frame (the hub decoded it).
func (a *App) terminalResize(c ws.Client, frame wire.Frame) error {
	f := frame.(wire.TerminalResize)
	run, err := a.terminalRun(f.RunID)
	if err != nil {
		return err
	}
	return run.Resize(c.ClientID, f.Cols, f.Rows)
}
