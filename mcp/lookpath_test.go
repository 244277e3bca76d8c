package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stdio server whose command is only in the login shell's PATH starts, and gets
// that PATH; a command in none of its folders fails with an error naming the PATH
// searched and whence it came.
func TestCommandFoundInTheGivenPATH(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := "#!/bin/sh\nexec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "wisp-login-only-server"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	login := bin + ":/usr/bin:/bin"
	w := newWatched(t, Options{
		Env:  []string{"PATH=/usr/bin:/bin", "KEEP=kept"},
		PATH: func() (string, string) { return login, "login shell /bin/fake" },
	})
	server := Spec{Command: "wisp-login-only-server", Args: []string{"-test.run=^$"}, Env: map[string]string{"WISP_MCP_TEST_SERVER": "1"}, Cwd: t.TempDir()}
	w.Apply(map[string]Spec{
		"login":   server,
		"missing": {Command: "wisp-no-such-program"},
		"own":     {Command: "wisp-login-only-server", Env: map[string]string{"PATH": "/nowhere:relative"}},
	})
	w.until(t, "login", running)
	for name, want := range map[string]string{"PATH": login, "KEEP": "kept"} {
		res, err := w.Call(context.Background(), "login", "env", json.RawMessage(`{"name":"`+name+`"}`), nil)
		if err != nil || res.Text != want {
			t.Errorf("env %s = %+v, %v; want %q", name, res, err, want)
		}
	}
	failed := func(st Status) bool { return st.State == Failed }
	if st, want := w.until(t, "missing", failed), `command "wisp-no-such-program" not found in PATH (login shell /bin/fake): `+login; st.LastError != want {
		t.Errorf("last error = %q, want %q", st.LastError, want)
	}
	if st, want := w.until(t, "own", failed), `command "wisp-login-only-server" not found in PATH (the server's env): /nowhere:relative`; st.LastError != want {
		t.Errorf("last error = %q, want %q", st.LastError, want)
	}
}

func TestLookPath(t *testing.T) {
	bin := t.TempDir()
	for name, mode := range map[string]os.FileMode{"tool": 0o755, "data": 0o644} {
		if err := os.WriteFile(filepath.Join(bin, name), nil, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(bin, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(bin) // so that a relative folder would find tool
	long := strings.Repeat("/long", 400)
	for _, c := range []struct{ command, path, want, err string }{
		{"tool", "/nowhere:" + bin, filepath.Join(bin, "tool"), ""},
		{"./tool", "", "./tool", ""}, // a path: taken as it is
		{"/abs/tool", "", "/abs/tool", ""},
		{"data", bin, "", `command "data" not found in PATH (from): ` + bin},
		{"dir", bin, "", `not found in PATH`},
		{"tool", ".::tool", "", `not found in PATH (from): .::tool`}, // relative folders are never searched
		{"tool", "", "", `not found in PATH (from): (empty)`},
		{"tool", long, "", `not found in PATH (from): ` + long[:maxShownPATH] + "…"},
	} {
		got, err := lookPath(c.command, c.path, "from")
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("lookPath(%q, %q) = %q, %v; want %q", c.command, c.path, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || (c.path == long && !strings.HasSuffix(err.Error(), "…"))) {
			t.Errorf("lookPath(%q, %.40q) = %q, %v; want an error with %.80q", c.command, c.path, got, err, c.err)
		}
	}
}
