package benchkit

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEnvLine(t *testing.T) {
	base := Env{Date: "2026-01-02 03:04 UTC", Commit: "780c7ac", Go: "go1.26 linux/amd64", Kernel: "6.1", CPU: "AMD EPYC", CPUs: 2}
	const host = " · go1.26 linux/amd64 · Linux 6.1 · AMD EPYC (2 CPUs)"
	wisp := Binary{Name: "wisp", Path: "build/bin/wisp-serve", Size: 38100432}
	floor := Binary{Name: "floor", Path: "build/bin/wisp-floor", Size: 7 << 20}
	for _, tc := range []struct {
		name   string
		commit string
		bins   []Binary
		driver string
		want   string
	}{
		{
			name: "in-process driver", commit: "780c7ac",
			bins: []Binary{{Name: "bench/chat", Path: "/tmp/go-build1/exe/chat", Size: 43 << 20}}, driver: "bench/chat",
			want: "Measured 2026-01-02 03:04 UTC · commit 780c7ac · in-process: the driver binary bench/chat, 43.0 MiB, which links Wisp's app package" + host,
		},
		{
			name: "in-process driver of unknown size, dirty tree", commit: "780c7ac-dirty",
			bins: []Binary{{Name: "bench/emote", Size: -1}}, driver: "bench/emote",
			want: "Measured 2026-01-02 03:04 UTC · commit 780c7ac-dirty · in-process: the driver binary bench/emote, size unknown, which links Wisp's app package" + host,
		},
		{
			name: "separate binaries", commit: "780c7ac",
			bins: []Binary{wisp, floor},
			want: "Measured 2026-01-02 03:04 UTC · commit 780c7ac · wisp `build/bin/wisp-serve` (36.3 MiB), floor `build/bin/wisp-floor` (7.0 MiB)" + host,
		},
		{
			name: "a binary that is missing", commit: UnknownCommit,
			bins: []Binary{{Name: "wisp", Path: "build/bin/wisp-serve", Size: -1}},
			want: "Measured 2026-01-02 03:04 UTC · unknown commit · wisp `build/bin/wisp-serve` (size unknown)" + host,
		},
		{
			name: "nothing known",
			want: "Measured 2026-01-02 03:04 UTC · unknown commit · binary unknown" + host,
		},
	} {
		e := base
		e.Commit, e.Binaries, e.Driver = tc.commit, tc.bins, tc.driver
		if got := e.Line(); got != tc.want {
			t.Errorf("%s: Line() =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// TestInProcess runs the path every in-process driver (chat, terminal, emote,
// config, proactive) takes for its header: the test binary stands for the driver.
func TestInProcess(t *testing.T) {
	e := InProcess("bench/chat")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Binaries) != 1 || e.Binaries[0].Size != fi.Size() || e.Binaries[0].Path != exe {
		t.Fatalf("InProcess binaries = %+v, want %s of %d bytes", e.Binaries, exe, fi.Size())
	}
	line := e.Line()
	want := regexp.MustCompile(`^Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC · (commit [0-9a-f]{4,}(-dirty| \(changes unknown\))?|unknown commit) · ` +
		`in-process: the driver binary bench/chat, \d+\.\d MiB, which links Wisp's app package · go\S+ \S+/\S+ · Linux .+ \(\d+ CPUs\)$`)
	if !want.MatchString(line) {
		t.Errorf("InProcess(...).Line() = %q, want it to match %s", line, want)
	}
	if e.CPUs < 1 || e.Go == "" {
		t.Errorf("InProcess = %+v", e)
	}
}

func TestCommit(t *testing.T) {
	const head = "780c7ac\n"
	for _, tc := range []struct {
		name      string
		head      string
		headErr   error
		status    string
		statusErr error
		want      string
	}{
		{name: "clean", head: head, want: "780c7ac"},
		{name: "no git", headErr: errors.New(`exec: "git": executable file not found in $PATH`), want: UnknownCommit},
		{name: "not a repository", head: "fatal: not a git repository\n", headErr: errors.New("exit status 128"), want: UnknownCommit},
		{name: "no output", head: "\n", want: UnknownCommit},
		{name: "status fails", head: head, statusErr: errors.New("exit status 128"), want: "780c7ac (changes unknown)"},
		{name: "Go file modified", head: head, status: " M app/api/status.go\n", want: "780c7ac-dirty"},
		{name: "Go file staged", head: head, status: "M  runtime/llm/errors.go\n", want: "780c7ac-dirty"},
		{name: "Go file deleted", head: head, status: " D terminal/pump.go\n", want: "780c7ac-dirty"},
		{name: "go.mod", head: head, status: " M go.mod\n", want: "780c7ac-dirty"},
		{name: "go.sum", head: head, status: "M  go.sum\n", want: "780c7ac-dirty"},
		{name: "renamed to a Go file", head: head, status: "R  notes.txt -> app/notes.go\n", want: "780c7ac-dirty"},
		{name: "renamed from a Go file", head: head, status: "R  app/old.go -> docs/old.txt\n", want: "780c7ac-dirty"},
		{name: "quoted path", head: head, status: " M \"app/we ird\\tname.go\"\n", want: "780c7ac-dirty"},
		{name: "only the frontend and docs", head: head, status: " M frontend/src/api/rest.ts\n M BENCHMARKS.md\n M Makefile\n", want: "780c7ac"},
		{name: "untracked Go file", head: head, status: "?? app/api/tokens.go\n", want: "780c7ac"},
		{name: "a name that only contains .go", head: head, status: " M docs/go.mod.md\n M app/gopher.golden\n", want: "780c7ac"},
		{name: "CRLF output", head: "780c7ac\r\n", status: " M main.go\r\n", want: "780c7ac-dirty"},
	} {
		git := func(args ...string) (string, error) {
			switch strings.Join(args, " ") {
			case "rev-parse --short HEAD":
				return tc.head, tc.headErr
			case "status --porcelain --untracked-files=no":
				return tc.status, tc.statusErr
			}
			t.Fatalf("%s: unexpected git %q", tc.name, args)
			return "", nil
		}
		if got := commitWith(git); got != tc.want {
			t.Errorf("%s: commit = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStatBinary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp-serve")
	if err := os.WriteFile(path, make([]byte, 3<<19), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		size       int64
		text       string
	}{
		{"present", path, 3 << 19, "1.5 MiB"},
		{"missing", filepath.Join(dir, "missing"), -1, "size unknown"},
	} {
		b := StatBinary("wisp", tc.path)
		if b.Name != "wisp" || b.Path != tc.path || b.Size != tc.size || b.SizeText() != tc.text {
			t.Errorf("%s: StatBinary = %+v (%q), want size %d (%q)", tc.name, b, b.SizeText(), tc.size, tc.text)
		}
		if tc.size < 0 && !math.IsNaN(b.MiB()) {
			t.Errorf("%s: MiB() = %v, want NaN", tc.name, b.MiB())
		}
	}
}
