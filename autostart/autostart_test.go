package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"XDG_CONFIG_HOME", map[string]string{"XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/ada"}, "/x/conf/autostart/wisp.desktop"},
		{"a relative XDG_CONFIG_HOME is ignored", map[string]string{"XDG_CONFIG_HOME": "conf", "HOME": "/home/ada"},
			"/home/ada/.config/autostart/wisp.desktop"},
		{"HOME", map[string]string{"HOME": "/home/ada"}, "/home/ada/.config/autostart/wisp.desktop"},
		{"neither", map[string]string{"HOME": "ada"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Locate(env(tc.env))
			if tc.want == "" {
				if err == nil {
					t.Fatalf("found %s", e.Path)
				}
				return
			}
			if err != nil || e.Path != tc.want {
				t.Fatalf("got %q, %v; want %q", e.Path, err, tc.want)
			}
		})
	}
}

// entryIn is the entry under a fresh XDG_CONFIG_HOME.
func entryIn(t *testing.T) Entry {
	t.Helper()
	e, err := Locate(env(map[string]string{"XDG_CONFIG_HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func enabled(t *testing.T, e Entry) bool {
	t.Helper()
	on, err := e.Enabled()
	if err != nil {
		t.Fatal(err)
	}
	return on
}

func TestEnableDisable(t *testing.T) {
	e := entryIn(t)
	if enabled(t, e) {
		t.Fatal("enabled before anything was written")
	}
	if err := e.Enable([]string{"/usr/bin/wisp"}); err != nil {
		t.Fatal(err)
	}
	if !enabled(t, e) {
		t.Fatal("not enabled after Enable")
	}
	data, err := os.ReadFile(e.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"[Desktop Entry]\n", "Type=Application\n", "Exec=/usr/bin/wisp\n", "Name=Wisp\n"} {
		if !strings.Contains(string(data), line) {
			t.Errorf("the entry lacks %q:\n%s", line, data)
		}
	}
	st, _ := os.Stat(e.Path)
	dir, _ := os.Stat(filepath.Dir(e.Path))
	if st.Mode().Perm() != 0o644 || dir.Mode().Perm() != 0o700 {
		t.Errorf("modes: entry %v, folder %v; want 0644 and 0700", st.Mode().Perm(), dir.Mode().Perm())
	}
	// The same entry again is not rewritten; another command is.
	if err := e.Enable([]string{"/usr/bin/wisp"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.Stat(e.Path); !os.SameFile(st, again) {
		t.Error("an unchanged entry was written again")
	}
	if err := e.Enable([]string{"/opt/wisp/wisp", "serve"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(e.Path); !strings.Contains(string(data), "Exec=/opt/wisp/wisp serve\n") {
		t.Errorf("the entry was not rewritten:\n%s", data)
	}
	left, _ := os.ReadDir(filepath.Dir(e.Path))
	if len(left) != 1 || left[0].Name() != FileName {
		t.Errorf("the folder holds %v, want only %s (no temporary files)", left, FileName)
	}
	for range 2 { // removing what is not there is not an error
		if err := e.Disable(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(e.Path); !os.IsNotExist(err) {
		t.Fatalf("the entry is still there: %v", err)
	}
}

func TestEnabledReadsTheEntry(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          bool
	}{
		{"plain", "[Desktop Entry]\nType=Application\nExec=wisp\n", true},
		{"hidden (deleted)", "[Desktop Entry]\nExec=wisp\nHidden=true\n", false},
		{"turned off by GNOME", "[Desktop Entry]\nExec=wisp\nX-GNOME-Autostart-enabled = false\n", false},
		{"turned on by GNOME", "[Desktop Entry]\nExec=wisp\nX-GNOME-Autostart-enabled=true\n", true},
		{"a key of another group", "[Desktop Entry]\nExec=wisp\n[Desktop Action x]\nHidden=true\n", true},
		{"no desktop entry", "Exec=wisp\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := entryIn(t)
			if err := os.MkdirAll(filepath.Dir(e.Path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(e.Path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := enabled(t, e); got != tc.want {
				t.Fatalf("enabled %v, want %v", got, tc.want)
			}
		})
	}
}

// Whatever is where the entry should be instead of a regular file of a sane size is
// refused at once, not waited on, naming it. A link is followed (a dotfiles manager
// may keep the entry as one), so a link to /dev/zero is a device.
func TestEnabledRefusesOddFiles(t *testing.T) {
	cases := []struct {
		odd  rt.Odd
		want string // after the path
	}{
		{rt.FIFO, " is a named pipe, not a regular file"},
		{rt.Folder, " is a folder, not a regular file"},
		{rt.Socket, " is a socket, not a regular file"},
		{rt.DevZero, " is a device, not a regular file"},
		{rt.Huge, " is larger than 64 KiB"},
	}
	for _, tc := range cases {
		t.Run(tc.odd.Name, func(t *testing.T) {
			e := entryIn(t)
			if err := os.MkdirAll(filepath.Dir(e.Path), 0o700); err != nil {
				t.Fatal(err)
			}
			tc.odd.Make(t, e.Path)
			var on bool
			err := rt.ReturnsSoon(t, "Enabled", func() (err error) {
				on, err = e.Enabled()
				return err
			})
			if want := e.Path + tc.want; on || err == nil || err.Error() != want {
				t.Fatalf("on %v, err %v\nwant an error %s", on, err, want)
			}
		})
	}
}

// unquoteExec reads an Exec value back into its arguments, by the Desktop Entry
// specification: the string escapes first, then the quoting, then "%%".
func unquoteExec(t *testing.T, v string) []string {
	t.Helper()
	v = strings.NewReplacer(`\\`, `\`, `\s`, " ", `\n`, "\n", `\t`, "\t", `\r`, "\r").Replace(v)
	var args []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quoted && c == '\\' && i+1 < len(v) && strings.IndexByte("\"`$\\", v[i+1]) >= 0:
			i++
			cur.WriteByte(v[i])
		case quoted && c == '"':
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '"':
			quoted, inArg = true, true
		case c == ' ':
			if inArg {
				args = append(args, strings.ReplaceAll(cur.String(), "%%", "%"))
				cur.Reset()
				inArg = false
			}
		default:
			if strings.IndexByte(reserved, c) >= 0 {
				t.Fatalf("unquoted reserved character %q in %q", c, v)
			}
			cur.WriteByte(c)
			inArg = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", v)
	}
	if inArg {
		args = append(args, strings.ReplaceAll(cur.String(), "%%", "%"))
	}
	return args
}

func TestExecValueRoundTrips(t *testing.T) {
	for _, cmd := range [][]string{
		{"/usr/bin/wisp"},
		{"/usr/bin/wisp", "serve"},
		{"/home/ada/My Apps/wisp", "serve", "--state-dir", "/home/ada/state dir"},
		{`/opt/a"b/$HOME/x\y/wisp`, "--state-dir", "/tmp/100%/it's `here`"},
		{"/opt/wisp", ""},
		{"/opt/é/wisp"},
	} {
		v, err := execValue(cmd)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		if got := unquoteExec(t, v); strings.Join(got, "\x00") != strings.Join(cmd, "\x00") {
			t.Errorf("%q was written as %s, which reads back as %q", cmd, v, got)
		}
	}
	if got, _ := execValue([]string{`/a b/w\isp`}); got != `"/a b/w\\\\isp"` {
		t.Errorf("a quoted backslash is written as four: got %s", got)
	}
}

func TestContentRefuses(t *testing.T) {
	for _, cmd := range [][]string{nil, {"wisp"}, {"/usr/bin/wisp\n"}, {"/usr/bin/wisp", "a\tb"}} {
		if _, err := Content(cmd); err == nil {
			t.Errorf("%q was accepted", cmd)
		}
	}
}

// Enable and Disable remove the temporary files a write of the entry killed before
// its rename left in the autostart folder, but not one another Wisp's write still
// holds, nor other files.
func TestChangesRemoveStaleTemps(t *testing.T) {
	for _, change := range []struct {
		name string
		do   func(Entry) error
	}{
		{"Enable", func(e Entry) error { return e.Enable([]string{"/usr/bin/wisp"}) }},
		{"Disable", Entry.Disable},
	} {
		t.Run(change.name, func(t *testing.T) {
			e := entryIn(t)
			dir := filepath.Dir(e.Path)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			stale := filepath.Join(dir, ".wisp.desktop.tmp-123")
			live := filepath.Join(dir, ".wisp.desktop.tmp-456")
			other := filepath.Join(dir, ".other.desktop.tmp-1")
			for _, p := range []string{stale, live, other} {
				if err := os.WriteFile(p, []byte("[Desktop Entry]\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(live)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
			if err := change.do(e); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(stale); !os.IsNotExist(err) {
				t.Errorf("the stale temporary file is still there: %v", err)
			}
			for _, p := range []string{live, other} {
				if _, err := os.Lstat(p); err != nil {
					t.Errorf("%s was removed: %v", p, err)
				}
			}
		})
	}
}
