package app

import (
	"context"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
)

// Restart applies the restart-only settings in-process: a new guard, a new listener
// if the address changed, a new terminal runner if its limits changed or shell access
// was turned off. The store, the /ws hub, chat and the agent runtime (which reads its
// settings every turn) keep running, so replies in progress are not cut off. Sockets
// are closed with 1012 when who may connect changed, so they come back under the new
// rules. If the new settings cannot be served (the port is taken), nothing changes.
// No change of the settings lands half way: the restart runs on their queue.
func (a *App) Restart(context.Context) (api.RestartResult, error) {
	if err := a.restartServices(); err != nil {
		return api.RestartResult{}, err
	}
	c := a.Connection()
	return api.RestartResult{OK: true, Status: a.status(), Connection: api.ConnectionInfo{BaseURL: c.BaseURL, WSURL: c.WSURL}}, nil
}

var _ api.Restarter = (*App)(nil)

func (a *App) restartServices() error {
	if !a.life.mu.TryLock() {
		if a.life.state.Load() == "stopped" {
			return fault.Unavailable.Errorf("Wisp is stopping")
		}
		return fault.Conflict.Errorf("a restart is already in progress")
	}
	defer a.life.mu.Unlock()
	if st := a.life.state.Load().(string); st != "running" {
		return fault.Conflict.Errorf("Wisp is %s", st)
	}
	a.life.state.Store("restarting")
	a.broadcastStatus()
	err := a.settings.Restart(a.restart)
	a.life.state.Store("running")
	a.broadcastStatus()
	return err
}

func (a *App) restart(cfg config.Config) error {
	if a.life.restartHook != nil {
		a.life.restartHook()
	}
	old := a.svc.Load()
	if err := a.checkServable(cfg); err != nil {
		return fault.Conflict.Errorf("cannot restart: %v", err)
	}
	next := &services{cfg: cfg, ln: old.ln, srv: old.srv, term: old.term}
	rebind := cfg.Server.Host != old.cfg.Server.Host || cfg.Server.Port != old.cfg.Server.Port
	if rebind {
		ln, err := a.listenOn(cfg)
		if err != nil {
			return fault.Conflict.Errorf("cannot restart: %v (Wisp keeps running on %s)", err, a.URL())
		}
		next.ln, next.srv = ln, a.newHTTPServer()
		// Processes started from now on may not reach the new port.
		a.setConfinement(cfg, ln.Addr().(*net.TCPAddr).Port)
	}
	guard, err := a.newGuard(cfg, next.ln)
	if err != nil {
		if rebind {
			next.ln.Close()
			a.setConfinement(old.cfg, old.ln.Addr().(*net.TCPAddr).Port)
		}
		return fault.Conflict.Errorf("cannot restart: %v", err)
	}
	next.guard = guard
	next.termGate = a.newTerminalGate(cfg)
	if terminalChanged(old.cfg, cfg) {
		old.term.Stop() // its runs end; the new limits start empty
		next.term = a.newTerminalManager(cfg)
	}
	next.handler = a.newHandler(next)
	a.svc.Store(next)
	if rebind {
		a.life.draining.Add(1)
		go func() {
			defer a.life.draining.Done()
			a.reconfineMCP()
		}()
		go a.serve(next.srv, next.ln)
		a.life.draining.Add(1)
		go a.retire(old.srv)
		a.announce()
	}
	if rebind || accessChanged(old.cfg, cfg) {
		a.core.hub.Disconnect(1012, "service restart")
	}
	a.life.startedAt.Store(time.Now().UnixMilli())
	a.log.Info("wisp restarted", "url", a.URL(), "rebound", rebind, "shell", cfg.Features.ShellEnabled)
	return nil
}

// retire shuts down a server a restart moved away from, once its requests are done
// (among them the restart's own answer).
func (a *App) retire(srv *http.Server) {
	defer a.life.draining.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
	}
}

// terminalChanged says whether the shell runner must be rebuilt: its limits changed,
// or shell access was taken away (runs in progress must not outlive it).
func terminalChanged(old, next config.Config) bool {
	return old.Terminal != next.Terminal || (old.Features.ShellEnabled && !next.Features.ShellEnabled)
}

// accessChanged says whether the rules for who may connect changed.
func accessChanged(old, next config.Config) bool {
	return old.API.Token != next.API.Token ||
		!slices.Equal(old.Server.AllowedOrigins, next.Server.AllowedOrigins) ||
		!slices.Equal(old.Server.AllowedHosts, next.Server.AllowedHosts)
}
