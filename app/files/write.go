package files

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/wispapp/wisp/internal/atomicfile"
)

// syscallNoFollow opens a file only if it is not a link.
const syscallNoFollow = syscall.O_NOFOLLOW

// writeAtomic replaces name in dir with data: a temporary file beside it (named as
// internal/atomicfile names them), synced, given mode, renamed over it, and the
// folder synced. A failure leaves the file as it was and no temporary file.
func writeAtomic(dir *os.Root, name string, data []byte, mode fs.FileMode) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := atomicfile.TempPrefix(name) + hex.EncodeToString(rnd[:])
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			_ = dir.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	if err := f.Close(); err != nil {
		_ = dir.Remove(tmp)
		done = true
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	if err := dir.Rename(tmp, name); err != nil {
		_ = dir.Remove(tmp)
		done = true
		return fmt.Errorf("write %s: %w", name, plain(err))
	}
	done = true
	if d, err := dir.Open("."); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
