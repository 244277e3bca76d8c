package shellgrant

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A harness runs command lines through the real Bash with nothing real to
// run: PATH holds only stubs that log their name, every builtin Bash lets us
// disable is disabled (so it runs as a stub too), and a command_not_found
// handler logs anything else. Each case runs in a folder of its own, which is
// also its HOME.
type harness struct {
	dir, stubs, env string
}

const bashPath = "/bin/bash"

// stubScript logs its name, counts runs (a loop that never ends is killed
// with its process group after 20), and exits with $SG_EXIT. It runs under
// /bin/sh with builtins only, since PATH holds stubs.
const stubScript = `#!/bin/sh
printf '%s\n' "${SG_NAME:-${0##*/}}" >>"$SG_LOG"
read n <"$SG_CNT" || n=0
n=$((${n:-0} + 1))
echo "$n" >"$SG_CNT"
[ "$n" -gt 20 ] && kill -9 0
exit "${SG_EXIT:-0}"
`

func newHarness(t *testing.T, names []string) *harness {
	t.Helper()
	h := &harness{dir: t.TempDir()}
	h.stubs = filepath.Join(h.dir, "stubs")
	if err := os.Mkdir(h.stubs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range append(names, ".notfound") {
		if n == "" || n == "." || n == ".." || strings.Contains(n, "/") {
			continue
		}
		if err := os.WriteFile(filepath.Join(h.stubs, n), []byte(stubScript), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(bashPath, "-c", "enable").Output()
	if err != nil {
		t.Fatal(err)
	}
	var builtins []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if b := strings.TrimPrefix(line, "enable "); b != "enable" {
			builtins = append(builtins, b)
		}
	}
	h.env = filepath.Join(h.dir, "env.sh")
	env := "enable -n " + strings.Join(builtins, " ") + "\n" +
		`command_not_found_handle() { SG_NAME="$1" "$SG_STUBS/.notfound" "$@"; }` + "\n"
	if err := os.WriteFile(h.env, []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	return h
}

// ran runs command twice, every stub exiting 0 then 1 (so both sides of &&,
// || and if run), or once when both is false, and returns the names of the
// programs and builtins run.
func (h *harness) ran(command string, both bool) (names []string, err error) {
	dir, err := os.MkdirTemp(h.dir, "case")
	if err != nil {
		return nil, err
	}
	for _, f := range inputFiles { // so that < f finds something to read
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			return nil, err
		}
	}
	statuses := []string{"0", "1"}
	if !both {
		statuses = statuses[:1]
	}
	for _, status := range statuses {
		log, count := filepath.Join(dir, ".log"), filepath.Join(dir, ".count")
		if err := os.WriteFile(count, []byte("0\n"), 0o644); err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bashPath, "-c", command)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + h.stubs, "HOME=" + dir, "BASH_ENV=" + h.env, "SG_STUBS=" + h.stubs,
			"SG_LOG=" + log, "SG_CNT=" + count, "SG_EXIT=" + status, "LC_ALL=C.UTF-8"}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out // Wait then waits for background jobs too
		cmd.WaitDelay = time.Second
		_ = cmd.Run() // a failing command, or one its loop guard killed, is fine
		cancel()
		if data, err := os.ReadFile(log); err == nil {
			for _, n := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if n != "" && !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
	}
	return names, nil
}

// inputFiles exist in every case's folder.
var inputFiles = []string{"f", "in.txt", "go.mod", "a", "b"}

// unsafeForBash finds commands that could reach real programs even in the
// harness (absolute paths, PATH, command -p, enable -f, writes outside the
// case's folder). The tables keep such cases to the ones that always ask.
var unsafeForBash = regexp.MustCompile(`(^|[^A-Za-z0-9_.~-])/(bin|sbin|usr|lib|lib64|opt|snap|nix|tmp|etc|var|home|root|proc|sys|boot|srv|mnt|media|run)\b|\.\./|command -p|enable|hash|PATH|[<>][&|]?\s*/`)

func safeForBash(command string) bool {
	for _, dev := range []string{"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"} {
		command = strings.ReplaceAll(command, dev, "DEV")
	}
	return !unsafeForBash.MatchString(command)
}

// program is the program a base runs: git for "git status".
func program(base string) string {
	name, _, _ := strings.Cut(base, " ")
	return name
}

// outcome is what Bash ran for one command.
type outcome struct {
	names []string
	err   error
}

// runAll runs every command through the harness, a few at a time: twice
// those in both, once the others.
func (h *harness) runAll(commands []string, both map[string]bool) map[string]outcome {
	var mu sync.Mutex
	out := make(map[string]outcome, len(commands))
	work := make(chan string)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for c := range work {
				names, err := h.ran(c, both[c])
				mu.Lock()
				out[c] = outcome{names, err}
				mu.Unlock()
			}
		})
	}
	for _, c := range commands {
		work <- c
	}
	close(work)
	wg.Wait()
	return out
}
