package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/wispapp/wisp/internal/atomicfile"
)

// plan is where the filesystem rules go for a set of denied paths: the denied paths
// (resolved, none beneath another) get nothing, the folders above them only a
// listing, and every other entry of those folders everything.
type plan struct {
	denied     []string
	ancestors  []string // the folders above the denied paths, the root first
	isDenied   map[string]bool
	isAncestor map[string]bool
	// temps are, by folder, the name prefixes never allowed there: the temporary
	// files of a denied file, which become that file when renamed over it.
	temps map[string][]string
	// writable are the ancestors Wisp's user may write (by the permissions), as the
	// user would name them: where confined processes lose creating entries.
	writable []string
	problems []string // denied paths that cannot be protected, said for the user
}

// planPaths resolves the denied paths (Landlock sees the resolved hierarchy): each is
// denied under its resolved name and, when it is a link, as the entry of its folder
// too, so that the link can be neither followed nor replaced.
func planPaths(deny []string) plan {
	p := plan{isDenied: map[string]bool{}, isAncestor: map[string]bool{}, temps: map[string][]string{}}
	var all []string
	for _, d := range deny {
		if d == "" {
			continue
		}
		entry, full, err := resolveBoth(d)
		if err != nil {
			p.problems = append(p.problems, fmt.Sprintf("%s cannot be protected (%v)", d, err))
			continue
		}
		for _, r := range slices.Compact([]string{entry, full}) {
			if r == "/" {
				p.problems = append(p.problems, fmt.Sprintf("%s cannot be protected (it is the root folder)", d))
				continue
			}
			all = append(all, r)
			dir, name := filepath.Split(r)
			dir = filepath.Clean(dir)
			p.temps[dir] = append(p.temps[dir], atomicfile.TempPrefix(name))
		}
	}
	slices.Sort(all)
	for _, d := range slices.Compact(all) {
		if !slices.ContainsFunc(p.denied, func(outer string) bool { return beneath(d, outer) }) {
			p.denied = append(p.denied, d)
			p.isDenied[d] = true
		}
	}
	for _, d := range p.denied {
		for a := filepath.Dir(d); !p.isAncestor[a]; a = filepath.Dir(a) {
			p.isAncestor[a] = true
			p.ancestors = append(p.ancestors, a)
			if a == "/" {
				break
			}
		}
	}
	slices.SortStableFunc(p.ancestors, func(a, b string) int { return depth(a) - depth(b) })
	p.writable = writableOf(p.ancestors)
	return p
}

// depth is how many folders path is below the root.
func depth(path string) int {
	if path == "/" {
		return 0
	}
	return strings.Count(path, "/")
}

// beneath says whether path is inside folder.
func beneath(path, folder string) bool {
	return folder == "/" || strings.HasPrefix(path, folder+"/")
}

// temporary says whether name, in folder dir, is a denied file's temporary file.
func (p plan) temporary(dir, name string) bool {
	return slices.ContainsFunc(p.temps[dir], func(prefix string) bool { return strings.HasPrefix(name, prefix) })
}

// resolveBoth is path with its folder resolved (the entry itself, a link or not) and
// path resolved all the way; a part that does not exist yet is kept as it is.
func resolveBoth(path string) (entry, full string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	if abs == "/" {
		return "/", "/", nil
	}
	dir, err := resolve(filepath.Dir(abs))
	if err != nil {
		return "", "", err
	}
	full, err = resolve(abs)
	return filepath.Join(dir, filepath.Base(abs)), full, err
}

// resolve follows the links of path's existing part.
func resolve(path string) (string, error) {
	r, err := filepath.EvalSymlinks(path)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) || path == "/" {
		return "", err
	}
	dir, err := resolve(filepath.Dir(path))
	return filepath.Join(dir, filepath.Base(path)), err
}

// writableOf are the folders of list the user may write, with the home folder as ~.
func writableOf(list []string) []string {
	home, _ := os.UserHomeDir()
	var out []string
	for _, a := range list {
		if unix.Access(a, unix.W_OK) != nil {
			continue
		}
		if home != "" && home != "/" && (a == home || beneath(a, home)) {
			a = "~" + strings.TrimPrefix(a, home)
		}
		out = append(out, a)
	}
	return out
}
