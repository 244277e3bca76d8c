package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

const (
	// fileRights are the rights Landlock allows on a file that is not a folder.
	fileRights = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	// netRights are the network rights handled: connecting to and binding TCP ports.
	netRights = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	// settle is how long a folder must have been left alone for its listing to be
	// trusted: a change within the same tick of the clock keeps the modification time.
	settle = time.Second
)

// detect is the kernel's Landlock ABI, or why there is none.
func detect() (int, string) {
	abi, err := ll.LandlockGetABIVersion()
	switch {
	case errors.Is(err, unix.ENOSYS):
		return 0, "This kernel has no Landlock (Linux 5.13 or later, built with it, has)"
	case errors.Is(err, unix.EOPNOTSUPP):
		return 0, "Landlock is turned off in this kernel (it needs landlock in the lsm= boot parameter)"
	case err != nil:
		return 0, fmt.Sprintf("Landlock is not available (%v)", err)
	}
	return abi, ""
}

// handledFS are the filesystem rights of the ABI that are handled: all but
// RESOLVE_UNIX (ABI 9), so UNIX sockets are left alone on every kernel.
func handledFS(abi int) uint64 {
	switch {
	case abi >= 5:
		return 1<<16 - 1 // IOCTL_DEV
	case abi >= 3:
		return 1<<15 - 1 // TRUNCATE
	case abi == 2:
		return 1<<14 - 1 // REFER
	case abi == 1:
		return 1<<13 - 1
	}
	return 0
}

// pathLayer is a filesystem ruleset and the state of the folders it was listed from.
type pathLayer struct {
	fd     int
	stamps []stamp
}

// stamp is an ancestor folder as it was when its entries were listed.
type stamp struct {
	path   string
	exists bool
	dev    uint64
	ino    uint64
	mtime  unix.Timespec
	// recheck, when set, is when to list the folder again: it changed just before
	// it was listed, and a change in the same tick of the clock would have kept its
	// modification time.
	recheck time.Time
}

func stampOf(path string, st *unix.Stat_t, now time.Time) stamp {
	s := stamp{path: path, exists: true, dev: st.Dev, ino: st.Ino, mtime: st.Mtim}
	if mtime := time.Unix(st.Mtim.Unix()); now.Sub(mtime) < settle {
		s.recheck = mtime.Add(settle)
	}
	return s
}

// stale says whether an ancestor changed since the rules were built (an entry was
// made, removed or renamed in it, or it was replaced), or is due to be listed again.
func (l *pathLayer) stale() bool {
	now := time.Now()
	for _, s := range l.stamps {
		var st unix.Stat_t
		err := unix.Lstat(s.path, &st)
		if (!s.recheck.IsZero() && now.After(s.recheck)) || (err == nil) != s.exists {
			return true
		}
		if s.exists && (st.Dev != s.dev || st.Ino != s.ino || st.Mtim != s.mtime) {
			return true
		}
	}
	return false
}

// buildPaths makes the filesystem ruleset of p.
func buildPaths(p plan, abi int) (*pathLayer, error) {
	handled := handledFS(abi)
	fd, err := ll.LandlockCreateRuleset(&ll.RulesetAttr{HandledAccessFS: handled}, 0)
	if err != nil {
		return nil, fmt.Errorf("create a filesystem ruleset: %w", err)
	}
	l := &pathLayer{fd: fd}
	denied := map[fileID]bool{}
	for _, d := range p.denied {
		var st unix.Stat_t
		if unix.Stat(d, &st) == nil {
			denied[fileID{st.Dev, st.Ino}] = true
		}
	}
	for _, a := range p.ancestors {
		if err := l.addAncestor(a, p, handled, denied); err != nil {
			unix.Close(fd)
			return nil, err
		}
	}
	return l, nil
}

type fileID struct{ dev, ino uint64 }

// addAncestor lets dir be listed and allows each of its entries that is neither
// denied nor on the way to a denied path. A folder that cannot be opened or listed
// allows nothing below it.
func (l *pathLayer) addAncestor(dir string, p plan, handled uint64, denied map[fileID]bool) error {
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		l.stamps = append(l.stamps, stamp{path: dir})
		return nil
	}
	f := os.NewFile(uintptr(dfd), dir)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(dfd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", dir, err)
	}
	l.stamps = append(l.stamps, stampOf(dir, &st, time.Now()))
	if err := addPathRule(l.fd, dfd, handled&ll.AccessFSReadDir); err != nil {
		return fmt.Errorf("allow listing %s: %w", dir, err)
	}
	names, _ := f.Readdirnames(-1) // what could not be listed stays denied
	for _, name := range names {
		path := filepath.Join(dir, name)
		if p.isAncestor[path] || p.isDenied[path] || p.temporary(dir, name) {
			continue
		}
		if err := addEntry(l.fd, dfd, name, handled, denied); err != nil {
			return fmt.Errorf("allow %s: %w", path, err)
		}
	}
	return nil
}

// addEntry allows everything beneath the entry name of the folder dirfd, unless it is
// a link or one of the denied files under another name.
func addEntry(ruleset, dirfd int, name string, handled uint64, denied map[fileID]bool) error {
	fd, err := unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // gone since the listing
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil
	}
	kind := st.Mode & unix.S_IFMT
	if kind == unix.S_IFLNK || denied[fileID{st.Dev, st.Ino}] {
		return nil
	}
	access := handled
	if kind != unix.S_IFDIR {
		access &= fileRights
	}
	return addPathRule(ruleset, fd, access)
}

func addPathRule(ruleset, fd int, access uint64) error {
	if access == 0 {
		return nil
	}
	return ll.LandlockAddPathBeneathRule(ruleset, &ll.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}, 0)
}

// netBuild is the network ruleset for a set of ports, built in the background.
type netBuild struct {
	done chan struct{}
	fd   int // after done: -1 when dropped
	err  error
}

// buildNet makes a network ruleset that allows connecting to and binding every TCP
// port but deny: Landlock has no rule that denies.
func buildNet(deny []int) (int, error) {
	fd, err := ll.LandlockCreateRuleset(&ll.RulesetAttr{HandledAccessNet: netRights}, 0)
	if err != nil {
		return -1, fmt.Errorf("create a network ruleset: %w", err)
	}
	denied := make([]bool, 1<<16)
	for _, p := range deny {
		if p >= 0 && p < len(denied) {
			denied[p] = true
		}
	}
	attr := ll.NetPortAttr{AllowedAccess: netRights}
	for port := range denied {
		if denied[port] {
			continue
		}
		attr.Port = uint64(port)
		if err := ll.LandlockAddNetPortRule(fd, &attr, 0); err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("allow port %d: %w", port, err)
		}
	}
	return fd, nil
}

func closeFD(fd int) { _ = unix.Close(fd) }
