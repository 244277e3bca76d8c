package loginpath

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// fallbackShell is asked when neither $SHELL nor the passwd entry names a usable
// shell: it reads /etc/profile and ~/.profile.
const fallbackShell = "/bin/sh"

// maxFileBytes bounds what is read of /etc/shells and /etc/passwd.
const maxFileBytes = 4 << 20

// chooseShell picks the shell to ask: $SHELL if it is usable, else the passwd
// entry's, else /bin/sh. Notes say why the ones before were passed over; "" means
// none is usable (the last note says why).
func (o *Options) chooseShell() (string, []string) {
	listed, err := o.listedShells()
	var notes []string
	if err != nil {
		notes = append(notes, fmt.Sprintf("cannot read the list of login shells: %v", err))
	}
	if sh := o.Getenv("SHELL"); sh != "" {
		if err := usable(sh, listed, o.ShellsFile); err == nil {
			return sh, notes
		} else {
			notes = append(notes, fmt.Sprintf("$SHELL %.200q %v", sh, err))
		}
	}
	if sh, err := o.passwdShell(); err != nil {
		notes = append(notes, fmt.Sprintf("no shell in the passwd entry: %v", err))
	} else if err := usable(sh, listed, o.ShellsFile); err != nil {
		notes = append(notes, fmt.Sprintf("the passwd entry's shell %.200q %v", sh, err))
	} else {
		return sh, notes
	}
	if err := executable(fallbackShell); err != nil {
		return "", append(notes, fmt.Sprintf("%s %v", fallbackShell, err))
	}
	return fallbackShell, notes
}

// usable reports why sh may not be run as the login shell: it must be an absolute,
// clean path that the list of login shells names, to an executable file.
func usable(sh string, listed map[string]bool, shellsFile string) error {
	if !filepath.IsAbs(sh) || filepath.Clean(sh) != sh {
		return errors.New("is not an absolute path")
	}
	if !listed[sh] {
		return fmt.Errorf("is not listed in %s", shellsFile)
	}
	return executable(sh)
}

func executable(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return errors.New("does not exist")
	}
	if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return errors.New("is not an executable file")
	}
	return nil
}

// listedShells reads the list of login shells: one absolute path a line, # comments.
func (o *Options) listedShells() (map[string]bool, error) {
	listed := map[string]bool{}
	err := eachLine(o.ShellsFile, func(line string) bool {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "/") {
			listed[line] = true
		}
		return true
	})
	return listed, err
}

// passwdShell is the shell of the passwd entry of this process's user.
func (o *Options) passwdShell() (string, error) {
	uid := strconv.Itoa(os.Getuid())
	shell, found := "", false
	err := eachLine(o.PasswdFile, func(line string) bool {
		f := strings.Split(line, ":")
		if len(f) == 7 && f[2] == uid {
			shell, found = f[6], true
			return false
		}
		return true
	})
	switch {
	case err != nil:
		return "", err
	case !found:
		return "", fmt.Errorf("no entry for user %s in %s", uid, o.PasswdFile)
	case shell == "":
		return "", errors.New("it names no shell")
	}
	return shell, nil
}

// eachLine calls f with each line of the first maxFileBytes of a file until f says stop.
func eachLine(path string, f func(string) bool) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(io.LimitReader(file, maxFileBytes))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		if !f(sc.Text()) {
			return nil
		}
	}
	return sc.Err()
}

// kind is how a family of shells is asked.
type kind struct {
	from   string   // "login shell", or "shell" when it cannot be one and run a command
	flags  []string // before the script
	script string   // printf's arguments after the format: the markers around the PATH
}

// The script prints each marker in two halves, so the command line itself (echoed
// by a start-up file, say) never reads as a marker.
const format = `printf '\n%%s%%s\n%%s\n%%s%%s\n' '%s' '%s' %s '%s' '%s'`

var (
	posix = kind{from: "login shell", flags: []string{"-l", "-i", "-c"}, script: `"$PATH"`}
	// fish keeps PATH as a list; `string join` gives it with colons (fish ≥ 2.3).
	fish = kind{from: "login shell", flags: []string{"-l", "-i", "-c"}, script: `(string join : $PATH)`}
	// csh and tcsh take -l only as their sole flag: asked with -c they read
	// ~/.cshrc (where their users set path) but not ~/.login.
	csh = kind{from: "shell", flags: []string{"-c"}, script: `"$PATH"`}
)

// unsupported are shells whose language has no printf '…' "$PATH".
var unsupported = map[string]bool{"nu": true, "xonsh": true, "elvish": true, "pwsh": true, "ion": true, "murex": true, "ysh": true}

// kindOf says how to ask sh, by its name: a POSIX shell unless known otherwise.
func kindOf(sh string) (kind, error) {
	switch name := filepath.Base(sh); {
	case name == "fish":
		return fish, nil
	case name == "csh" || name == "tcsh":
		return csh, nil
	case unsupported[name]:
		return kind{}, fmt.Errorf("Wisp does not know how to ask %s (%s) for its PATH", name, sh)
	}
	return posix, nil
}
