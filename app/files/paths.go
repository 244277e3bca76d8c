package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// place is a path the model named, inside one root: rel is slash-separated, "." for
// the root itself, and has no ".." and no empty component.
type place struct {
	root, rel string
}

// abs is the place's path as the user reads it.
func (p place) abs() string {
	if p.rel == "." {
		return p.root
	}
	return filepath.Join(p.root, filepath.FromSlash(p.rel))
}

// maxPathBytes bounds a path the model sends.
const maxPathBytes = 4096

// locate reads a path the model sent: absolute and under a root, or relative to the
// only root; "~/" is the home folder. A ".." component is refused whatever it would
// resolve to, so the model never learns what lies outside by trying.
func (s *Service) locate(p string) (place, error) {
	roots := s.o.Roots()
	if len(roots) == 0 {
		return place{}, errors.New("no folder is open to you: the user can add one in Settings (files.roots)")
	}
	p = strings.TrimSpace(p)
	switch {
	case len(p) > maxPathBytes:
		return place{}, fmt.Errorf("the path is longer than %d bytes", maxPathBytes)
	case strings.ContainsRune(p, 0) || !utf8.ValidString(p):
		return place{}, errors.New("the path must be text")
	case p == "":
		if len(roots) == 1 {
			return place{root: roots[0], rel: "."}, nil
		}
		return place{}, fmt.Errorf("path is required: one of the folders %s, or a path inside one", s.rootList())
	}
	if (p == "~" || strings.HasPrefix(p, "~/")) && s.o.Home != "" {
		p = s.o.Home + p[1:]
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return place{}, fmt.Errorf("%q has a \"..\" component: name the file by its path inside %s", p, s.rootList())
		}
	}
	if !filepath.IsAbs(p) {
		if len(roots) != 1 {
			return place{}, fmt.Errorf("%q is relative: give an absolute path inside %s", p, s.rootList())
		}
		p = filepath.Join(roots[0], p)
	}
	p = filepath.Clean(p)
	best := ""
	for _, r := range roots {
		r = filepath.Clean(r)
		if (p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/")) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		return place{}, fmt.Errorf("%s is outside the folders you may use (%s)", s.show(p), s.rootList())
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(p, best), "/")
	if rel == "" {
		rel = "."
	}
	return place{root: best, rel: filepath.ToSlash(rel)}, nil
}

// rootList names the roots for a message.
func (s *Service) rootList() string {
	roots := s.o.Roots()
	shown := make([]string, len(roots))
	for i, r := range roots {
		shown[i] = s.show(r)
	}
	return strings.Join(shown, ", ")
}

// show is a path with the home folder as ~.
func (s *Service) show(p string) string {
	h := strings.TrimSuffix(s.o.Home, "/")
	if h == "" {
		return p
	}
	if p == h {
		return "~"
	}
	if strings.HasPrefix(p, h+"/") {
		return "~" + p[len(h):]
	}
	return p
}

// fileID is a file's identity: a hard link or a bind mount of a denied file has
// the same one.
type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// denial is what may never be touched now: the denied folders (their resolved
// paths and identities, for what is inside them) and files (identities, and the
// files directly in a denied folder: its database, its token).
type denial struct {
	dirs []string
	ids  map[fileID]string
}

// denied builds the denial from the live list; it is cheap (a few stats).
func (s *Service) denied() denial {
	d := denial{ids: map[fileID]string{}}
	for _, p := range s.o.Deny() {
		if p == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = filepath.Clean(p)
		}
		fi, err := os.Stat(real)
		if err != nil {
			continue
		}
		if id, ok := idOf(fi); ok {
			d.ids[id] = p
		}
		if !fi.IsDir() {
			continue
		}
		d.dirs = append(d.dirs, real)
		entries, err := os.ReadDir(real)
		if err != nil {
			continue
		}
		for i, e := range entries {
			if i >= 1000 {
				break
			}
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				if id, ok := idOf(info); ok {
					d.ids[id] = p
				}
			}
		}
	}
	return d
}

// errDenied is how a denied path is refused.
func errDenied(shown string) error {
	return fmt.Errorf("%s is Wisp's own state folder or settings file (or inside it): the agent never reads or changes it", shown)
}

// check refuses an open file or folder that is, or is inside, a denied path: by its
// identity, and by the path the kernel says it has now (links resolved).
func (d denial) check(f *os.File, shown string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if id, ok := idOf(fi); ok {
		if _, bad := d.ids[id]; bad {
			return errDenied(shown)
		}
	}
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil // no /proc: the identities above still hold for the files and folders themselves
	}
	for _, dir := range d.dirs {
		if real == dir || strings.HasPrefix(real, strings.TrimSuffix(dir, "/")+"/") {
			return errDenied(shown)
		}
	}
	return nil
}

// deniedInfo says whether an entry found in a walk is a denied file or folder.
func (d denial) deniedInfo(fi fs.FileInfo) bool {
	id, ok := idOf(fi)
	if !ok {
		return false
	}
	_, bad := d.ids[id]
	return bad
}

// openFlags open without blocking (a FIFO, a device) and never as the controlling
// terminal; what is opened is then checked by its fstat.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_CLOEXEC

// open opens a place for reading through its root: no link, no "..", even swapped
// in during the call, leads out of the root. want is "file" or "dir" ("" either).
func (s *Service) open(p place, want string) (*os.File, fs.FileInfo, error) {
	root, err := os.OpenRoot(p.root)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open the folder %s: %w", s.show(p.root), plain(err))
	}
	defer root.Close()
	f, err := root.OpenFile(p.rel, openFlags, 0)
	if err != nil {
		return nil, nil, s.openError(p, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = s.denied().check(f, s.show(p.abs()))
	}
	if err == nil {
		err = s.kindCheck(p, fi, want)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// kindCheck refuses what is not a regular file or a folder (as wanted).
func (s *Service) kindCheck(p place, fi fs.FileInfo, want string) error {
	shown := s.show(p.abs())
	switch {
	case fi.IsDir() && want == "file":
		return fmt.Errorf("%s is a folder: list it with LIST_FILES", shown)
	case fi.Mode().IsRegular() && want == "dir":
		return fmt.Errorf("%s is a file, not a folder", shown)
	case !fi.IsDir() && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is %s, not a regular file: it is not read", shown, what(fi.Mode()))
	}
	return nil
}

// what names a kind of file.
func what(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	}
	return "a special file"
}

// openError says why a place could not be opened, without the root's internals.
func (s *Service) openError(p place, err error) error {
	shown := s.show(p.abs())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", shown)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s cannot be read: permission denied", shown)
	case strings.Contains(err.Error(), "escapes from parent"), errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s leads out of %s through a symbolic link: it is not followed", shown, s.show(p.root))
	}
	return fmt.Errorf("%s cannot be opened: %w", shown, plain(err))
}

// plain is an error without the path os puts in front (the message names it).
func plain(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// dirOf splits a rel into its folder and name.
func dirOf(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	return dir, name
}
