package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/autostart"
)

// openAtLogin is desktop.openAtLogin in an answer of GET or PUT /api/config.
func openAtLogin(t *testing.T, view answer) bool {
	t.Helper()
	if view.status != 200 {
		t.Fatalf("config route: %d %v", view.status, view.body)
	}
	d, _ := view.body["config"].(map[string]any)["desktop"].(map[string]any)
	on, ok := d["openAtLogin"].(bool)
	if !ok {
		t.Fatalf("no desktop.openAtLogin in %v", view.body["config"])
	}
	return on
}

// wantEntry is the entry that starts this test binary as `wisp serve` on a's state folder.
func wantEntry(t *testing.T, a *termApp) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir, _ := filepath.Abs(a.stateDir)
	content, err := autostart.Content([]string{exe, "serve", "--state-dir", dir})
	if err != nil {
		t.Fatal(err)
	}
	return content
}

func fileSays(t *testing.T, a *termApp, want string) {
	t.Helper()
	data, _ := os.ReadFile(a.settings.Path())
	if !strings.Contains(strings.Join(strings.Fields(string(data)), ""), want) {
		t.Fatalf("the config file does not say %s:\n%s", want, data)
	}
}

// The setting writes the entry (pointing at this binary, in $XDG_CONFIG_HOME) and
// removes it; the view shows the entry on disk, so one deleted by hand shows off,
// and switching the setting on again writes it though the file already said on.
func TestOpenAtLoginWritesAndRemovesTheEntry(t *testing.T) {
	xdg := t.TempDir()
	a := startTerminal(t, `{}`, map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": t.TempDir()})
	entry := filepath.Join(xdg, "autostart", "wisp.desktop")
	if openAtLogin(t, a.do("GET", "/api/config", nil, nil)) {
		t.Fatal("on before anything was set")
	}

	if !openAtLogin(t, a.do("PUT", "/api/config", `{"desktop":{"openAtLogin":true}}`, nil)) {
		t.Fatal("the answer to switching it on shows it off")
	}
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatalf("no entry: %v", err)
	}
	if want := wantEntry(t, a); string(data) != want {
		t.Fatalf("entry:\n%s\nwant:\n%s", data, want)
	}
	fileSays(t, a, `"openAtLogin":true`)

	// Deleted by hand: the view follows the disk, and Wisp does not write it back.
	if err := os.Remove(entry); err != nil {
		t.Fatal(err)
	}
	if openAtLogin(t, a.do("GET", "/api/config", nil, nil)) {
		t.Fatal("an entry deleted by hand still shows on")
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("reading the settings wrote the entry back: %v", err)
	}
	if !openAtLogin(t, a.do("PUT", "/api/config", `{"desktop":{"openAtLogin":true}}`, nil)) {
		t.Fatal("switching it on again shows it off")
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("switching it on again wrote no entry: %v", err)
	}

	if openAtLogin(t, a.do("PUT", "/api/config", `{"desktop":{"openAtLogin":false}}`, nil)) {
		t.Fatal("the answer to switching it off shows it on")
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("the entry is still there: %v", err)
	}
	fileSays(t, a, `"openAtLogin":false`)
}

// A hand edit of wisp.json goes through the owner like any change: the entry
// appears and goes with the file's setting.
func TestOpenAtLoginFollowsAHandEdit(t *testing.T) {
	home := t.TempDir()
	a := startTerminal(t, `{}`, map[string]string{"HOME": home}) // no XDG_CONFIG_HOME: ~/.config
	entry := filepath.Join(home, ".config", "autostart", "wisp.desktop")
	w := dialSocket(t, a.App, "")
	changed := func(m map[string]any) bool {
		return m["type"] == "config-changed" && slices.Equal(strList(m["paths"]), []string{"desktop.openAtLogin"})
	}

	handEdit(t, a.App, `{"desktop":{"openAtLogin":true}}`)
	w.waitFor(t, changed)
	if data, err := os.ReadFile(entry); err != nil || string(data) != wantEntry(t, a) {
		t.Fatalf("after the edit: %v\n%s", err, data)
	}
	if !openAtLogin(t, a.do("GET", "/api/config", nil, nil)) {
		t.Fatal("the view shows it off")
	}

	handEdit(t, a.App, `{"desktop":{"openAtLogin":false}}`)
	w.waitFor(t, changed)
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Fatalf("the entry is still there: %v", err)
	}
}

// Where no autostart folder can be found, switching it on is refused and nothing
// is saved.
func TestOpenAtLoginNeedsAFolder(t *testing.T) {
	a := startTerminal(t, `{}`, map[string]string{"XDG_CONFIG_HOME": "relative/conf"})
	got := a.do("PUT", "/api/config", `{"desktop":{"openAtLogin":true}}`, nil)
	if got.status != 400 || !strings.Contains(str(got.body["error"]), "no autostart folder") {
		t.Fatalf("PUT: %d %v", got.status, got.body)
	}
	if data, _ := os.ReadFile(a.settings.Path()); string(data) != "{}" {
		t.Fatalf("a refused change was saved: %s", data)
	}
	if openAtLogin(t, a.do("GET", "/api/config", nil, nil)) {
		t.Fatal("shows on")
	}
}
