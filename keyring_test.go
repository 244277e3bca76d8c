package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wispapp/wisp/secrets"
)

// The keyring tests run `wisp serve` (a child process: godbus keeps one session bus
// connection per process) on a private session bus with tools/fakesecretd, a
// stand-in Secret Service. They need dbus-daemon, which scripts/deps.sh installs:
// without it they fail, saying so, rather than skip.

// startBus starts a private session bus for the test and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Fatalf("the keyring tests need dbus-daemon (Debian's dbus package; scripts/deps.sh installs it): %v", err)
	}
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

var secretd = struct {
	once sync.Once
	path string
	err  error
}{}

// startSecretd runs tools/fakesecretd (built once) on the bus, with args, until the
// test ends; it returns once the stand-in owns its name.
func startSecretd(t *testing.T, bus string, args ...string) {
	t.Helper()
	secretd.once.Do(func() {
		dir, err := os.MkdirTemp("", "fakesecretd")
		if err != nil {
			secretd.err = err
			return
		}
		secretd.path = filepath.Join(dir, "fakesecretd")
		if out, err := exec.Command("go", "build", "-o", secretd.path, "./tools/fakesecretd").CombinedOutput(); err != nil {
			secretd.err = &buildError{err, string(out)}
		}
	})
	if secretd.err != nil {
		t.Fatalf("build tools/fakesecretd: %v", secretd.err)
	}
	cmd := exec.Command(secretd.path, args...)
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+bus)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "fakesecretd ready" {
		t.Fatalf("fakesecretd did not start: %q %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// item is one of fakesecretd's items, as its -dump file has it.
type item struct {
	Attributes map[string]string `json:"attributes"`
	Secret     string            `json:"secret"`
}

func dumped(t *testing.T, path string) []item {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the keyring's dump: %v", err)
	}
	var items []item
	if err := json.Unmarshal(data, &items); err != nil {
		t.Fatal(err)
	}
	return items
}

// kept is the secret the keyring keeps for the config file and setting, if any.
func kept(items []item, configPath, setting string) (string, bool) {
	for _, it := range items {
		if it.Attributes["service"] == secrets.ServiceFor(configPath) && it.Attributes["username"] == setting {
			return it.Secret, true
		}
	}
	return "", false
}

// call sends a request to the Wisp at url, with the token `wisp serve` keeps in dir.
func call(t *testing.T, url, dir, method, path, body string) map[string]any {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(dir, "api-token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != 200 {
		t.Fatalf("%s %s: %d %v %v", method, path, res.StatusCode, m, err)
	}
	return m
}

func stop(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("wisp serve after SIGTERM: %v", err)
	}
}

func fileHas(t *testing.T, dir, s string) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "wisp.json"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(data), s)
}

func storeOf(view map[string]any) map[string]any {
	s, _ := view["secretStore"].(map[string]any)
	return s
}

// A key saved in the settings lands in the keyring, not in wisp.json; a restarted
// Wisp reads it back; an old wisp.json's key moves to the keyring at start.
func TestKeyringOnASessionBus(t *testing.T) {
	bus := startBus(t)
	dump := filepath.Join(t.TempDir(), "items.json")
	startSecretd(t, bus, "-dump", dump)
	env := "DBUS_SESSION_BUS_ADDRESS=" + bus

	dir := t.TempDir()
	wisp, url := serving(t, dir, env)
	view := call(t, url, dir, "PUT", "/api/config", `{"model":{"apiKey":"sk-on-the-bus"}}`)
	if s := storeOf(view); s["where"] != "keyring" || s["service"] != secrets.ServiceFor(filepath.Join(dir, "wisp.json")) {
		t.Fatalf("secretStore %v", s)
	}
	if v, ok := kept(dumped(t, dump), filepath.Join(dir, "wisp.json"), "model.apiKey"); !ok || v != "sk-on-the-bus" {
		t.Fatalf("the keyring has %q (%v): %v", v, ok, dumped(t, dump))
	}
	if fileHas(t, dir, "sk-on-the-bus") {
		t.Fatal("the key is in wisp.json")
	}
	stop(t, wisp)

	wisp, url = serving(t, dir, env)
	view = call(t, url, dir, "GET", "/api/config", "")
	if view["secrets"].(map[string]any)["model.apiKey"] != true || storeOf(view)["where"] != "keyring" {
		t.Fatalf("after a restart: %v %v", view["secrets"], storeOf(view))
	}
	if info := call(t, url, dir, "GET", "/api/provider", ""); info["hasApiKey"] != true {
		t.Fatalf("provider %v", info)
	}
	stop(t, wisp)

	old := t.TempDir()
	content := `{"model":{"provider":"openai","apiKey":"sk-from-an-old-file"},"plugins":{"kept":true}}`
	if err := os.WriteFile(filepath.Join(old, "wisp.json"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	wisp, _ = serving(t, old, env)
	if v, ok := kept(dumped(t, dump), filepath.Join(old, "wisp.json"), "model.apiKey"); !ok || v != "sk-from-an-old-file" {
		t.Fatalf("the old key did not move: %v", dumped(t, dump))
	}
	if fileHas(t, old, "sk-from-an-old-file") || !fileHas(t, old, `"kept": true`) {
		t.Fatal("the old file still has its key, or lost another key")
	}
	if v, _ := kept(dumped(t, dump), filepath.Join(dir, "wisp.json"), "model.apiKey"); v != "sk-on-the-bus" {
		t.Fatal("two state folders share a key")
	}
	stop(t, wisp)
}

// With no session bus at all, secrets stay in wisp.json, and the settings say why.
func TestKeyringWithoutABusLeavesSecretsInTheFile(t *testing.T) {
	dir := t.TempDir()
	wisp, url := serving(t, dir, "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(dir, "no-bus"))
	view := call(t, url, dir, "PUT", "/api/config", `{"model":{"apiKey":"sk-in-the-file"}}`)
	s := storeOf(view)
	if s["where"] != "file" || !strings.Contains(s["reason"].(string), "no-bus") {
		t.Fatalf("secretStore %v", s)
	}
	if !fileHas(t, dir, "sk-in-the-file") {
		t.Fatal("the key is not in wisp.json")
	}
	if info, err := os.Stat(filepath.Join(dir, "wisp.json")); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("wisp.json: %v %v", info.Mode(), err)
	}
	stop(t, wisp)
}

// A Secret Service that never answers costs Wisp's start one bounded wait, not a
// hang; saves then go to the file at once.
func TestKeyringThatNeverAnswersDoesNotHangStart(t *testing.T) {
	bus := startBus(t)
	startSecretd(t, bus, "-hang")
	dir := t.TempDir()
	began := time.Now()
	wisp, url := serving(t, dir, "DBUS_SESSION_BUS_ADDRESS="+bus)
	if took := time.Since(began); took > secrets.DefaultTimeout+20*time.Second {
		t.Fatalf("start took %s", took)
	}
	began = time.Now()
	view := call(t, url, dir, "PUT", "/api/config", `{"model":{"apiKey":"sk-while-stuck"}}`)
	if took := time.Since(began); took >= secrets.DefaultTimeout {
		t.Fatalf("a save waited %s for the stuck keyring", took)
	}
	if s := storeOf(view); s["where"] != "file" || !strings.Contains(s["reason"].(string), "did not answer") {
		t.Fatalf("secretStore %v", s)
	}
	if !fileHas(t, dir, "sk-while-stuck") {
		t.Fatal("the key is not in wisp.json")
	}
	stop(t, wisp)
}
