package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPlan(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(root, "home", ".local", "state", "wisp")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "home", "state")
	if err := os.Symlink(state, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(root, "home"))
	// The link's target is the state folder; the config file inside it is covered.
	p := planPaths([]string{link, filepath.Join(state, "wisp.json"), "", filepath.Join(root, "missing", "wisp.json")})
	want := []string{filepath.Join(root, "home", "state"), filepath.Join(root, "missing", "wisp.json"), state}
	slices.Sort(want)
	if !slices.Equal(p.denied, want) {
		t.Errorf("denied %q, want %q", p.denied, want)
	}
	if p.ancestors[0] != "/" || p.ancestors[len(p.ancestors)-1] != filepath.Join(root, "home", ".local", "state") {
		t.Errorf("ancestors %q: the root first, the deepest last", p.ancestors)
	}
	for _, a := range []string{root, filepath.Join(root, "home"), filepath.Join(root, "missing")} {
		if !p.isAncestor[a] {
			t.Errorf("%s is not an ancestor", a)
		}
	}
	if !p.temporary(filepath.Join(root, "missing"), ".wisp.json.tmp-abc") || p.temporary(filepath.Join(root, "missing"), "wisp.json.tmp-abc") {
		t.Error("the temporary files of a denied file are not recognised")
	}
	if len(p.problems) != 0 {
		t.Errorf("problems: %q", p.problems)
	}
	if os.Geteuid() != 0 && !slices.Contains(p.writable, "~/.local/state") {
		t.Errorf("writable %q", p.writable)
	}
}

func TestPlanRoot(t *testing.T) {
	p := planPaths([]string{"/"})
	if len(p.denied) != 0 || len(p.problems) != 1 || !strings.Contains(p.problems[0], "root folder") {
		t.Errorf("denying / gives %q, problems %q", p.denied, p.problems)
	}
}
