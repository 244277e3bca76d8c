//go:build linux

package confine

import (
	"os/exec"
	"path/filepath"
	"testing"
)

func BenchmarkBuildNet(b *testing.B) {
	for b.Loop() {
		fd, err := buildNet([]int{2138})
		if err != nil {
			b.Fatal(err)
		}
		closeFD(fd)
	}
}

// The rules for a state folder in /tmp (whose many entries are each a rule).
func BenchmarkBuildPaths(b *testing.B) {
	c := New(Options{Logger: quiet})
	if c.abi == 0 {
		b.Skip(c.none)
	}
	p := planPaths([]string{filepath.Join(b.TempDir(), "home", ".local", "state", "wisp")})
	b.ResetTimer()
	for b.Loop() {
		l, err := buildPaths(p, c.abi)
		if err != nil {
			b.Fatal(err)
		}
		closeFD(l.fd)
	}
}

func BenchmarkSpawner(b *testing.B) {
	c := New(Options{Logger: quiet})
	if c.abi == 0 {
		b.Skip(c.none)
	}
	l, err := buildPaths(planPaths([]string{b.TempDir()}), c.abi)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFD(l.fd)
	for b.Loop() {
		sp, err := newSpawner(l, nil)
		if err != nil {
			b.Fatal(err)
		}
		sp.retire()
	}
}

func BenchmarkStart(b *testing.B) {
	for _, mode := range []Mode{Auto, Off} {
		b.Run(string(mode)+"mode", func(b *testing.B) {
			c := New(Options{Mode: mode, Logger: quiet})
			defer c.Close()
			c.Set(Policy{Deny: []string{b.TempDir()}, Ports: []int{2138}})
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				release, err := c.Start(cmd.Start)
				if err != nil {
					b.Fatal(err)
				}
				cmd.Wait()
				release()
			}
		})
	}
}

func BenchmarkSpawnerWithNet(b *testing.B) {
	c := New(Options{Logger: quiet})
	if c.abi < 4 {
		b.Skip("no network rules")
	}
	l, err := buildPaths(planPaths([]string{b.TempDir()}), c.abi)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFD(l.fd)
	fd, err := buildNet([]int{2138})
	if err != nil {
		b.Fatal(err)
	}
	defer closeFD(fd)
	nb := &netBuild{fd: fd}
	b.ResetTimer()
	for b.Loop() {
		sp, err := newSpawner(l, nb)
		if err != nil {
			b.Fatal(err)
		}
		sp.retire()
	}
}
