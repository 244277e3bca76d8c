package config

import (
	"errors"
	"fmt"

	"github.com/wispapp/wisp/internal/regular"
)

// MaxFileBytes caps the config file: a settings file is a few kilobytes, and one
// linked to an endless source must not be read into memory.
const MaxFileBytes = 4 << 20

// readFile reads the config file at path, refusing anything but a regular file of at
// most MaxFileBytes. It never blocks on what is found there: a FIFO, a device or a
// socket is refused before anything is read from it (internal/regular). A symbolic
// link is followed: the file is the user's, and a dotfiles manager may keep it as a
// link into its repository. A missing file is an error that wraps fs.ErrNotExist.
func readFile(path string) ([]byte, error) {
	data, err := regular.ReadFile(path, MaxFileBytes, regular.Follow)
	var notRegular *regular.NotRegularError
	var tooLarge *regular.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("%w: Wisp reads its settings only from a regular file", err)
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%w, too large for a settings file", err)
	}
	return data, err
}
