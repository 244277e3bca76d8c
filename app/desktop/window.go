package desktop

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"path/filepath"
	"sync/atomic"

	"github.com/wispapp/wisp/internal/instance"
)

// windowRuntime is the part of the Wails runtime the window's handlers use; the
// desktop build passes Wails' own, tests a fake.
type windowRuntime interface {
	WindowShow(ctx context.Context)
	WindowUnminimise(ctx context.Context)
}

// window is the desktop window as Wisp's handlers see it: the runtime, and the Wails
// context it needs, known once the window has started.
type window struct {
	rt  windowRuntime
	log *slog.Logger
	ctx atomic.Pointer[context.Context]
}

// started records the Wails context (OnStartup).
func (w *window) started(ctx context.Context) { w.ctx.Store(&ctx) }

// secondLaunch brings the window forward when Wisp is launched again on its state
// folder (Wails' OnSecondInstanceLaunch): shown if hidden, restored if minimised,
// raised. A launch before the window has started needs nothing: it is about to show.
func (w *window) secondLaunch(args []string) {
	ctx := w.ctx.Load()
	if ctx == nil {
		w.log.Info("Wisp launched again while its window opens")
		return
	}
	w.log.Info("Wisp launched again: showing its window", "args", args)
	w.rt.WindowShow(*ctx)
	w.rt.WindowUnminimise(*ctx)
}

// instanceID names the desktop Wisp of a state folder for Wails' single-instance lock,
// so a second launch on the same folder reaches the first, and Wisps on different
// folders (a test's, a second profile) do not see each other.
func instanceID(stateDir string) string {
	dir, err := filepath.Abs(stateDir)
	if err != nil {
		dir = stateDir
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	sum := sha256.Sum256([]byte(dir))
	return "wisp-" + hex.EncodeToString(sum[:8])
}

// handOver answers a desktop launch refused because another Wisp runs on its state
// folder. If that one is a desktop Wisp, it is asked (through show) to bring its
// window forward, and this launch ends there without an error: the user sees Wisp.
// Otherwise, or if it cannot be reached, the refusal stands.
func handOver(err error, stateDir string, log *slog.Logger, show func(id string) error) error {
	var held *instance.HeldError
	if !errors.As(err, &held) || held.Holder.Mode != instance.ModeDesktop {
		return err
	}
	if serr := show(instanceID(stateDir)); serr != nil {
		log.Warn("cannot reach the window of the Wisp already running", "pid", held.Holder.PID, "err", serr)
		return err
	}
	log.Info("Wisp is already open on this state folder: its window was asked to come forward",
		"url", held.Holder.URL, "pid", held.Holder.PID)
	return nil
}
