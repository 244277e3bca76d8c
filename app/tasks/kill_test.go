package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/clock"
)

// The environment of the child process the kill -9 test starts: the database, the
// clock's time, and where the child dies.
const (
	childDB   = "WISP_TASKS_CHILD_DB"
	childNow  = "WISP_TASKS_CHILD_NOW"
	childDies = "WISP_TASKS_CHILD_DIES"
)

// runChild is a Wisp-like process: it starts the tasks on the database and, when
// its scheduler starts the due slot's run, kills itself with SIGKILL, in the claim's
// transaction before it commits ("inside") or right after it committed ("after").
func runChild() {
	st, err := store.Open(context.Background(), os.Getenv(childDB))
	if err != nil {
		os.Exit(3)
	}
	now, err := time.Parse(time.RFC3339, os.Getenv(childNow))
	if err != nil {
		os.Exit(4)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		os.Exit(4)
	}
	dies := os.Getenv(childDies)
	s := New(Options{Store: st, Events: newFrames(), Runner: dyingRunner{st, dies}, Clock: clock.NewFake(now),
		Location: berlin, Logger: quiet})
	if err := s.Start(context.Background()); err != nil {
		os.Exit(5)
	}
	time.Sleep(time.Minute) // the scheduler kills the process long before
	os.Exit(6)
}

type dyingRunner struct {
	st   *store.Store
	dies string
}

func (r dyingRunner) Start(ctx context.Context, _, _ string, _ json.RawMessage,
	claim func(ctx context.Context, tx *store.Tx, runID string) error) (string, error) {
	err := r.st.InTx(ctx, func(tx *store.Tx) error {
		if err := claim(ctx, tx, "run-child"); err != nil {
			return err
		}
		if r.dies == "inside" {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	})
	if err == nil && r.dies == "after" {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return "", errors.New("the child was to die")
}

func (dyingRunner) Follow(context.Context, string, func(RunEvent)) bool { return false }

// A process killed with -9 while it starts a slot's run leaves the slot claimed
// with its next run moved, or neither: killed after the claim committed, the next
// start never runs that slot again; killed before, it runs it once.
func TestKillNineNeverRunsASlotTwice(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	for _, dies := range []string{"after", "inside"} {
		t.Run("killed "+dies+" the claim's commit", func(t *testing.T) {
			e := newEnv(t, berlin, time.Date(2026, 6, 1, 8, 59, 0, 0, berlin))
			task := e.create(Input{Prompt: "p", Cron: ptr("0 9 * * *")})
			e.close()
			e.clk.Advance(90 * time.Second)

			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childDB+"="+e.path, childNow+"="+e.clk.Now().Format(time.RFC3339), childDies+"="+dies)
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child ended with %v, want killed by SIGKILL", err)
			}

			e.open()
			e.start()
			slot := time.Date(2026, 6, 1, 9, 0, 0, 0, berlin)
			if dies == "after" {
				e.settle()
				e.runner.noStart(t)
				run := e.lastRun(task.ID)
				if run.RunID != "run-child" || !run.Slot.Equal(slot) {
					t.Fatalf("last run %+v", run)
				}
			} else {
				s := e.runner.nextStart(t)
				if run := e.lastRun(task.ID); run.RunID != s.runID || !run.Slot.Equal(slot) {
					t.Fatalf("last run %+v", run)
				}
				e.settle()
				e.runner.noStart(t)
			}
			if next := e.task(task.ID).NextRunAt; !next.Equal(slot.Add(24 * time.Hour)) {
				t.Fatalf("next run %v", next)
			}
		})
	}
}
