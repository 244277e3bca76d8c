package config

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxFileBytes caps the config file: a settings file is a few kilobytes, and one
// linked to an endless source must not be read into memory.
const MaxFileBytes = 4 << 20

// readFile reads the config file at path, refusing anything but a regular file of at
// most MaxFileBytes. It never blocks on what is found there: the file is opened
// without waiting (a FIFO with no writer would hold an ordinary open forever), and a
// FIFO, a device or a socket is refused before anything is read from it. A missing
// file is an error that wraps fs.ErrNotExist.
func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file: Wisp reads its settings only from a regular file", path, kind(st.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB, too large for a settings file", path, MaxFileBytes>>20)
	}
	return data, nil
}

// kind names what a path that is not a regular file is.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
