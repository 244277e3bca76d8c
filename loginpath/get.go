package loginpath

import (
	"context"
	"os"
	"sync"
	"time"
)

// The process-wide resolution: started once, read by every caller.
var global struct {
	once   sync.Once
	done   chan struct{}
	result Result
	bound  time.Duration // how long Get waits for it
}

// Start begins resolving the login shell's PATH in the background, with o; only
// the first call (of Start or Get) counts. It never waits.
func Start(o Options) {
	global.once.Do(func() {
		o.setDefaults()
		global.done = make(chan struct{})
		global.bound = o.Timeout + killWait
		go func() {
			global.result = o.Resolve(context.Background())
			close(global.done)
		}()
	})
}

// Get returns the process-wide resolution, waiting for it while it runs (at most
// its time bound). It starts it with the default options if nothing did.
func Get() Result {
	Start(Options{})
	t := time.NewTimer(global.bound)
	defer t.Stop()
	select {
	case <-global.done:
		return global.result
	case <-t.C:
		return Result{PATH: os.Getenv("PATH"), From: Inherited, Why: "the login shell did not answer in time"}
	}
}
