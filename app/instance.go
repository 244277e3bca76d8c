package app

import (
	"os"

	"github.com/wispapp/wisp/internal/instance"
)

// lockStateFolder makes this Wisp the only one on its state folder before its
// database and its kept API token are opened, or fails naming the one that runs there
// (instance.HeldError). Before it, New has only read the config file (writing the
// defaults on a first run) and the emotes folder.
// The lock is let go last when Wisp stops; a crash's is let go by the kernel.
func (a *App) lockStateFolder() error {
	lock, err := instance.Acquire(a.stateDir, instance.Holder{PID: os.Getpid(), Mode: a.mode()})
	if err != nil {
		return err
	}
	a.lock = lock
	a.life.running.defer_("state folder lock", lock.Release)
	a.sweepStateFolder()
	return nil
}

// announce writes where Wisp now answers (without its token) into the lock, for a
// second Wisp to name. It is called once Wisp listens, and when a restart moves it.
func (a *App) announce() {
	if err := a.lock.Update(instance.Holder{PID: os.Getpid(), Mode: a.mode(), URL: a.URL()}); err != nil {
		a.log.Warn("cannot say where Wisp answers in the state folder's lock", "err", err)
	}
}

// mode is how this Wisp runs, as the lock says.
func (a *App) mode() string {
	if a.opts.Desktop {
		return instance.ModeDesktop
	}
	return instance.ModeServe
}
