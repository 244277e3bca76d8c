package benchkit

import (
	"fmt"
	"runtime"
	"time"
)

// Env is what a section says about the run it measured: when, with which Go,
// on which machine.
type Env struct {
	Date, Go, Kernel, CPU string
	CPUs                  int
}

// Environment describes this run, dated now.
func Environment() Env {
	e := Env{
		Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		CPUs: runtime.NumCPU(),
	}
	e.Kernel, e.CPU = Host()
	return e
}

// Line is the host line a section starts with, before the run's own details:
// "Measured <date> · <go> · Linux <kernel> · <cpu> (<n> CPUs)".
func (e Env) Line() string {
	return fmt.Sprintf("Measured %s · %s · Linux %s · %s (%d CPUs)", e.Date, e.Go, e.Kernel, e.CPU, e.CPUs)
}
