package config

import (
	"fmt"
	"strings"
)

// Consumer owns some settings (syncthing's verify/commit). VerifyConfig refuses a
// change it could never apply: the new file is then rejected as a whole and nothing
// is committed. CommitConfig applies a verified change and reports whether it took
// effect now; false makes the change wait for a restart.
type Consumer interface {
	VerifyConfig(from, to Config) error
	CommitConfig(from, to Config) bool
}

// Committer sends each config change to the consumers that own the changed settings,
// in two phases. Every setting has one owner. Register the owners before the first
// change; Verify and Commit may then be called from any goroutine, one change at a
// time.
type Committer struct {
	owners []owner
	byPath map[string]int // setting → index in owners
}

type owner struct {
	name string
	c    Consumer
}

// Own makes c, called name in errors, the owner of the settings at paths.
func (m *Committer) Own(name string, c Consumer, paths ...string) error {
	if m.byPath == nil {
		m.byPath = map[string]int{}
	}
	for _, p := range paths {
		if _, ok := FieldAt(p); !ok {
			return fmt.Errorf("config: %s owns %q, which is not a setting", name, p)
		}
		if i, ok := m.byPath[p]; ok {
			return fmt.Errorf("config: %s owns %q, which %s owns already", name, p, m.owners[i].name)
		}
	}
	m.owners = append(m.owners, owner{name, c})
	for _, p := range paths {
		m.byPath[p] = len(m.owners) - 1
	}
	return nil
}

// Unowned lists the settings that have no owner.
func (m *Committer) Unowned() []string {
	var out []string
	for _, f := range fields {
		if _, ok := m.byPath[f.Path]; !ok {
			out = append(out, f.Path)
		}
	}
	return out
}

// Verify asks the owner of every setting that differs from from to to whether it can
// take the change; the first refusal is returned.
func (m *Committer) Verify(from, to Config) error {
	for _, i := range m.touched(Diff(from, to)) {
		if err := m.owners[i].c.VerifyConfig(from, to); err != nil {
			return err
		}
	}
	return nil
}

// Commit gives a verified change to the owner of every setting that differs, once
// each, in the order they were registered. It returns every change, and those whose
// owner could not apply them while Wisp runs (they wait for a restart).
func (m *Committer) Commit(from, to Config) (changes, waiting []Change) {
	changes = Diff(from, to)
	for _, i := range m.touched(changes) {
		if m.owners[i].c.CommitConfig(from, to) {
			continue
		}
		for _, c := range changes {
			if m.byPath[c.Path] == i {
				waiting = append(waiting, c)
			}
		}
	}
	return changes, waiting
}

// touched are the owners of the changed settings, in registration order.
func (m *Committer) touched(changes []Change) []int {
	seen := make([]bool, len(m.owners))
	for _, c := range changes {
		if i, ok := m.byPath[c.Path]; ok {
			seen[i] = true
		}
	}
	var out []int
	for i, s := range seen {
		if s {
			out = append(out, i)
		}
	}
	return out
}

// Section lists the paths of the settings in a top-level section ("model").
func Section(name string) []string {
	var out []string
	for _, f := range fields {
		if head, _, _ := strings.Cut(f.Path, "."); head == name {
			out = append(out, f.Path)
		}
	}
	return out
}
