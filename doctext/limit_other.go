//go:build !unix

package doctext

import (
	"os"
	"os/exec"
)

// limitChild: only the Go runtime's soft limit (debug.SetMemoryLimit) bounds the
// child's memory where there are no rlimits.
func limitChild(int64) error { return nil }

func ownGroup(*exec.Cmd) {}

func maxRSS(*os.ProcessState) int64 { return 0 }
