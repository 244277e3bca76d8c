package loginpath

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// wispPATH is the test's "Wisp's own PATH".
const wispPATH = "/usr/bin:/wisp/bin:/bin"

// fakeShell writes an executable shell script named name (its kind comes from the
// name) that runs body; it is listed in the shells file opts gives.
func fakeShell(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// opts asks shell, named by $SHELL and listed in a shells file of the test's own,
// with a generous time bound (the machine may be busy). The passwd file has no
// entry for this user.
func opts(t *testing.T, shell string) Options {
	t.Helper()
	dir := t.TempDir()
	shells, passwd := filepath.Join(dir, "shells"), filepath.Join(dir, "passwd")
	if err := os.WriteFile(shells, []byte("# test shells\n"+shell+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(passwd, []byte(fmt.Sprintf("other:x:%d:0::/:/bin/false\n", os.Getuid()+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"SHELL": shell, "PATH": wispPATH, "HOME": dir}
	return Options{
		Getenv:     func(k string) string { return vars[k] },
		Env:        []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "WISP_API_TOKEN=secret", "TERM=xterm", "KEEP=kept"},
		Strip:      []string{"WISP_API_TOKEN"},
		ShellsFile: shells, PasswdFile: passwd,
		Timeout: time.Minute,
		Logger:  slog.New(slog.DiscardHandler),
	}
}

// loginShell behaves as a login shell would: it checks how it was started, prints
// banners (one without a newline, one that mentions a PATH), sets its own PATH
// (with a relative entry, an empty one and a repeat) and runs the script.
const loginShell = `
[ "$1" = -l ] && [ "$2" = -i ] && [ "$3" = -c ] && [ $# = 4 ] || { echo "started as: $*"; exit 9; }
[ -z "$WISP_API_TOKEN" ] || { echo "the secret reached it"; exit 8; }
[ "$TERM" = dumb ] && [ "$KEEP" = kept ] && [ "$WISP_READING_LOGIN_PATH" = 1 ] || { echo "environment"; exit 7; }
[ "$(pwd)" = "$HOME" ] || exit 6
if read line; then echo "stdin is not empty"; exit 5; fi
if (exec 3</dev/tty) 2>/dev/null; then echo "it has a terminal"; exit 4; fi
echo "Welcome to Fake OS"
echo "fortune: PATH=/evil is not a PATH"
printf 'a banner without a newline'
echo "to stderr" >&2
PATH=/opt/login/bin:relative::/usr/bin:/opt/login/bin/:/bin
export PATH
exec /bin/sh -c "$4"
`

func TestLoginShellPATH(t *testing.T) {
	sh := fakeShell(t, "zsh", loginShell)
	r := opts(t, sh).Resolve(context.Background())
	want := Result{PATH: "/opt/login/bin:/usr/bin:/bin:/wisp/bin", From: "login shell " + sh}
	if r != want {
		t.Fatalf("got %+v\nwant %+v", r, want)
	}
}

func TestShellKinds(t *testing.T) {
	// fish runs a fish script: the fake turns its one fish word into sh's.
	fish := `script=$(printf '%s' "$4" | sed 's/(string join : \$PATH)/"$PATH"/')
[ "$script" != "$4" ] || { echo "not a fish script"; exit 9; }
PATH=/opt/fish/bin:/usr/bin; export PATH
exec /bin/sh -c "$script"
`
	// csh and tcsh take -l only alone: they are asked with -c.
	tcsh := `[ "$1" = -c ] && [ $# = 2 ] || { echo "started as: $*"; exit 9; }
PATH=/opt/tcsh/bin; export PATH
exec /bin/sh -c "$2"
`
	for _, c := range []struct{ name, body, want, from string }{
		{"fish", fish, "/opt/fish/bin:/usr/bin:/wisp/bin:/bin", "login shell "},
		{"tcsh", tcsh, "/opt/tcsh/bin:/usr/bin:/wisp/bin:/bin", "shell "},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := fakeShell(t, c.name, c.body)
			r := opts(t, sh).Resolve(context.Background())
			if want := (Result{PATH: c.want, From: c.from + sh}); r != want {
				t.Fatalf("got %+v\nwant %+v", r, want)
			}
		})
	}
}

// Every failure gives Wisp's own PATH and says why.
func TestFallsBackAndSaysWhy(t *testing.T) {
	for _, c := range []struct{ name, shell, body, why string }{
		{"exits non-zero", "bash", "echo oops; exit 3", "ended (exit status 3) before printing its PATH"},
		{"killed", "bash", "kill -9 $$", "ended (signal: killed)"},
		{"prints no markers", "bash", `printf '\nwisp00\n/x\nwisp11\n'`, "printed no PATH between the markers"},
		{"huge output", "bash", `head -c 300000 /dev/zero | tr '\0' x; exec /bin/sh -c "$4"`, "printed more than 64 KiB"},
		{"only relative entries", "bash", `PATH=relative:.:; export PATH; exec /bin/sh -c "$4"`, "has no absolute folder"},
		{"a newline", "bash", "PATH='/a\n/b'; export PATH; exec /bin/sh -c \"$4\"", "more than one line"},
		{"a control character", "bash", `PATH=$(printf '/a\t/b'); export PATH; exec /bin/sh -c "$4"`, "control characters"},
		{"too long", "bash", `PATH=/$(head -c 40000 /dev/zero | tr '\0' a); export PATH; exec /bin/sh -c "$4"`, "longer than 32 KiB"},
		{"too many entries", "bash", `PATH=$(seq -f '/p%g' -s : 600); export PATH; exec /bin/sh -c "$4"`, "more than 512 folders"},
		{"unknown language", "nu", loginShell, "does not know how to ask nu"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sh := fakeShell(t, c.shell, c.body)
			r := opts(t, sh).Resolve(context.Background())
			if r.PATH != wispPATH || r.From != Inherited || !strings.Contains(r.Why, c.why) {
				t.Fatalf("got %+v, want Wisp's PATH and a reason with %q", r, c.why)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	sh := fakeShell(t, "bash", "exec sleep 1000")
	o := opts(t, sh)
	o.Timeout = 50 * time.Millisecond
	r := o.Resolve(context.Background())
	if r.PATH != wispPATH || r.From != Inherited || !strings.Contains(r.Why, "no answer within 50ms") {
		t.Fatalf("got %+v", r)
	}
}

// A Wisp started by a login shell's start-up files does not ask one in its turn.
func TestGuard(t *testing.T) {
	sh := fakeShell(t, "bash", loginShell)
	o := opts(t, sh)
	getenv := o.Getenv
	o.Getenv = func(k string) string {
		if k == GuardVar {
			return "1"
		}
		return getenv(k)
	}
	if r := o.Resolve(context.Background()); r.From != Inherited || !strings.Contains(r.Why, "started by the login shell") {
		t.Fatalf("got %+v", r)
	}
}

func TestChooseShell(t *testing.T) {
	listed := fakeShell(t, "bash", "")
	other := fakeShell(t, "zsh", "")
	notExec := filepath.Join(t.TempDir(), "sh")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	uid := os.Getuid()
	for _, c := range []struct {
		name, shell, passwd string
		listed              []string
		want, note          string
	}{
		{"$SHELL listed", listed, "", []string{listed}, listed, ""},
		{"$SHELL not listed: the passwd entry's", other, fmt.Sprintf("u:x:%d:0::/home/u:%s", uid, listed), []string{listed}, listed, "is not listed in"},
		{"$SHELL relative", "bash", fmt.Sprintf("u:x:%d:0::/home/u:%s", uid, listed), []string{listed, "bash"}, listed, "is not an absolute path"},
		{"$SHELL not clean", filepath.Dir(listed) + "/../" + filepath.Base(filepath.Dir(listed)) + "/bash", "", []string{listed}, "/bin/sh", "is not an absolute path"},
		{"$SHELL not executable", notExec, "", []string{notExec}, "/bin/sh", "is not an executable file"},
		{"$SHELL missing", "/no/such/shell", "", []string{"/no/such/shell"}, "/bin/sh", "does not exist"},
		{"another user's entry", "", fmt.Sprintf("u:x:%d:0::/home/u:%s", uid+1, listed), []string{listed}, "/bin/sh", "no entry for user"},
		{"the passwd shell not listed", "", fmt.Sprintf("u:x:%d:0::/home/u:%s", uid, other), []string{listed}, "/bin/sh", "is not listed in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := opts(t, c.shell)
			if err := os.WriteFile(o.ShellsFile, []byte(strings.Join(c.listed, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(o.PasswdFile, []byte(fmt.Sprintf("other:x:%d:0::/:/bin/false\n", uid+2)+c.passwd+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, notes := o.chooseShell()
			if got != c.want || (c.note != "" && !strings.Contains(strings.Join(notes, "; "), c.note)) {
				t.Fatalf("got %q (notes %q), want %q with a note %q", got, notes, c.want, c.note)
			}
		})
	}
}

// The process-wide resolution runs once, in the background; every Get sees it.
func TestStartAndGet(t *testing.T) {
	global.once = sync.Once{} // a fresh process (go test -count=N runs this again)
	sh := fakeShell(t, "bash", loginShell)
	Start(opts(t, sh))
	Start(Options{Getenv: func(string) string { return "" }}) // too late: ignored
	for range 2 {
		if r := Get(); r.From != "login shell "+sh || !strings.HasPrefix(r.PATH, "/opt/login/bin:") {
			t.Fatalf("got %+v", r)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"/usr/bin:/bin", "", ":", "a:b", "/a/../b://c/:/a", "/a\x00b", strings.Repeat("/a:", 600)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		entries, err := parse(line)
		if err != nil {
			return
		}
		if len(entries) == 0 || len(entries) > maxEntries {
			t.Fatalf("%d entries", len(entries))
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if !filepath.IsAbs(e) || seen[e] || strings.ContainsAny(e, ":\x00\n") {
				t.Fatalf("entry %q of %q", e, line)
			}
			seen[e] = true
		}
		merged := merge(entries, "/usr/bin:rel:/zz")
		if !strings.HasPrefix(merged, strings.Join(entries, ":")) {
			t.Fatalf("merged %q does not start with the login entries", merged)
		}
	})
}

func FuzzBetween(f *testing.F) {
	f.Add([]byte("banner\nB\n/usr/bin\nE\nbye"))
	f.Add([]byte("\nB\n/a\n/b\nE\n"))
	f.Add([]byte("B\n/x\nE\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		line, found, bad := between(out, "B", "E")
		if found && bad == nil && strings.Contains(line, "\n") {
			t.Fatalf("line %q has a newline", line)
		}
		if !found && (line != "" || bad != nil) {
			t.Fatal("an answer that was not found")
		}
	})
}
