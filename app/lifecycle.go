package app

import (
	"context"
	"fmt"
	"log/slog"
)

// service is what App starts and stops: Start returns once the service runs (an
// error means it does not), Stop ends it and waits for its goroutines.
type service interface {
	Start(ctx context.Context) error
	Stop()
}

// lifecycle is the stack of what App started. Stop undoes it newest first, so a
// failed start unwinds exactly what had started, and a normal stop ends each service
// before those it depends on.
type lifecycle struct {
	log   *slog.Logger
	stops []stopper
}

type stopper struct {
	name string
	stop func()
}

// start starts a service and, once it runs, remembers to stop it.
func (l *lifecycle) start(ctx context.Context, name string, s service) error {
	if err := s.Start(ctx); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	l.defer_(name, s.Stop)
	return nil
}

// startOptional starts a service Wisp can run without (a folder that cannot be
// watched): a failure is logged with what it costs, and Wisp goes on.
func (l *lifecycle) startOptional(ctx context.Context, name string, s service, cost string) {
	if err := l.start(ctx, name, s); err != nil {
		l.log.Warn("optional service not started", "service", name, "cost", cost, "err", err)
	}
}

// defer_ remembers to stop something that runs from the moment it was made (a
// database, a listener).
func (l *lifecycle) defer_(name string, stop func()) {
	l.stops = append(l.stops, stopper{name, stop})
}

// stop stops everything started, newest first. It may be called again: what was
// stopped is forgotten.
func (l *lifecycle) stop() {
	for i := len(l.stops) - 1; i >= 0; i-- {
		l.log.Debug("stopping", "service", l.stops[i].name)
		l.stops[i].stop()
	}
	l.stops = nil
}
