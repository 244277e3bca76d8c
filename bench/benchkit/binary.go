package benchkit

import (
	"fmt"
	"math"
	"os"
)

// Binary is one executable a run measured.
type Binary struct {
	Name string // its role in the run: "wisp", "floor", or the driver's name
	Path string
	Size int64 // bytes; -1 when unknown
}

// StatBinary names the executable at path, with its size when it can be read.
func StatBinary(name, path string) Binary {
	b := Binary{Name: name, Path: path, Size: -1}
	if fi, err := os.Stat(path); err == nil {
		b.Size = fi.Size()
	}
	return b
}

// Executable is this process's own executable, named name (a driver's name,
// such as "bench/chat").
func Executable(name string) Binary {
	path, err := os.Executable()
	if err != nil {
		return Binary{Name: name, Size: -1}
	}
	return StatBinary(name, path)
}

// MiB is the size in MiB, or NaN when unknown.
func (b Binary) MiB() float64 {
	if b.Size < 0 {
		return math.NaN()
	}
	return float64(b.Size) / (1 << 20)
}

// SizeText is the size as "36.3 MiB", or "size unknown".
func (b Binary) SizeText() string {
	if b.Size < 0 {
		return "size unknown"
	}
	return fmt.Sprintf("%.1f MiB", b.MiB())
}
