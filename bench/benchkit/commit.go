package benchkit

import (
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// UnknownCommit is what a section says when git cannot name the commit.
const UnknownCommit = "unknown commit"

// Commit names the commit of the working tree in the current directory:
// `git rev-parse --short HEAD`, with "-dirty" when `git status --porcelain`
// shows changes to tracked Go files, go.mod or go.sum (what the binaries are
// built from), or UnknownCommit when git cannot say.
func Commit() string { return commitWith(runGit) }

func runGit(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return string(out), err
}

// commitWith is Commit with git run by git (a fake in tests).
func commitWith(git func(args ...string) (string, error)) string {
	head, err := git("rev-parse", "--short", "HEAD")
	head = strings.TrimSpace(head)
	if err != nil || head == "" || strings.ContainsAny(head, " \n") {
		return UnknownCommit
	}
	status, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return head + " (changes unknown)"
	}
	if changesGo(status) {
		return head + "-dirty"
	}
	return head
}

// changesGo reports whether porcelain (`git status --porcelain` output: "XY path",
// "XY from -> to" for a rename) lists a tracked Go file, go.mod or go.sum.
func changesGo(porcelain string) bool {
	for line := range strings.Lines(porcelain) {
		line = strings.TrimRight(line, "\r\n")
		if len(line) < 4 || line[:2] == "??" || line[:2] == "!!" {
			continue
		}
		from, to, renamed := strings.Cut(line[3:], " -> ")
		if isGoSource(from) || renamed && isGoSource(to) {
			return true
		}
	}
	return false
}

func isGoSource(p string) bool {
	if s, err := strconv.Unquote(p); err == nil {
		p = s // git quotes paths with unusual characters
	}
	base := path.Base(p)
	return strings.HasSuffix(base, ".go") || base == "go.mod" || base == "go.sum"
}
