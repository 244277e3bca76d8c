package benchkit

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// Env is what a section says about the run it measured: when, at which commit,
// which binary, with which Go, on which machine.
type Env struct {
	Date, Commit, Go, Kernel, CPU string
	CPUs                          int
	// Binaries are the executables measured: Wisp's and its floors' when Wisp
	// runs as a process of its own (bench/startup), or the driver's own
	// executable when Wisp runs inside the driver (Driver is then set).
	Binaries []Binary
	// Driver names the driver ("bench/chat") when Wisp runs inside it.
	Driver string
}

// Environment describes this run, dated now, at the working tree's commit,
// measuring the binaries bins, each started as a process of its own.
func Environment(bins ...Binary) Env {
	e := Env{
		Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Commit: Commit(),
		Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Binaries: bins,
	}
	e.Kernel, e.CPU = Host()
	return e
}

// InProcess describes the run of driver (e.g. "bench/chat"), which starts Wisp
// inside its own process (StartApp): the binary measured is the driver's own
// executable.
func InProcess(driver string) Env {
	e := Environment(Executable(driver))
	e.Driver = driver
	return e
}

// Line is the header line a section starts with, before the run's own details:
//
//	Measured <date> · commit <commit> · <binaries> · <go> · Linux <kernel> · <cpu> (<n> CPUs)
func (e Env) Line() string {
	return fmt.Sprintf("Measured %s · %s · %s · %s · Linux %s · %s (%d CPUs)",
		e.Date, commitText(e.Commit), e.binariesText(), e.Go, e.Kernel, e.CPU, e.CPUs)
}

func commitText(c string) string {
	if c == "" || c == UnknownCommit {
		return UnknownCommit
	}
	return "commit " + c
}

// binariesText names what ran: "in-process: the driver binary bench/chat, 41.2 MiB,
// which links Wisp's app package", or "wisp `build/bin/wisp-serve` (36.3 MiB),
// floor `build/bin/wisp-floor` (7.4 MiB)".
func (e Env) binariesText() string {
	if e.Driver != "" {
		size := "size unknown"
		if len(e.Binaries) > 0 {
			size = e.Binaries[0].SizeText()
		}
		return fmt.Sprintf("in-process: the driver binary %s, %s, which links Wisp's app package", e.Driver, size)
	}
	if len(e.Binaries) == 0 {
		return "binary unknown"
	}
	parts := make([]string, len(e.Binaries))
	for i, b := range e.Binaries {
		parts[i] = fmt.Sprintf("%s `%s` (%s)", b.Name, b.Path, b.SizeText())
	}
	return strings.Join(parts, ", ")
}
