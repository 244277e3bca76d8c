//go:build unix

package doctext

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// limitChild bounds the child before it parses anything: its data segment
// (RLIMIT_DATA: the heap's mappings; beyond it the Go runtime fails with "out of
// memory" and exits) to what it holds now plus memory, no file written, no core.
func limitChild(memory int64) error {
	base := dataSize()
	lim := uint64(base + memory)
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		return err
	}
	zero := &syscall.Rlimit{}
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, zero)
	return syscall.Setrlimit(syscall.RLIMIT_FSIZE, zero)
}

// dataSize is the process's data segment now (VmData), 0 where /proc is missing.
func dataSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// ownGroup starts the child in a process group of its own, killed whole when
// the reading ends early.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// maxRSS is the child's peak resident memory in bytes, from its rusage.
func maxRSS(st *os.ProcessState) int64 {
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
