package terminal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// confiner is a fake Options.Confine: it counts what it started and released, and
// refuses when told to.
type confiner struct {
	mu       sync.Mutex
	started  int
	released int
	refuse   error
}

func (c *confiner) confine(start func() error) (func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse != nil {
		return nil, c.refuse
	}
	if err := start(); err != nil {
		return nil, err
	}
	c.started++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.released++
	}, nil
}

func (c *confiner) counts() (started, released int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started, c.released
}

// The agent's runs start through Confine, and let go of it once waited for; the
// user's own runs never do.
func TestAgentRunsAreConfined(t *testing.T) {
	c := &confiner{}
	m, rec := newTestManager(t, Options{Confine: c.confine})
	r := start(t, m, Spec{Command: "echo agent", Capture: true})
	wait(t, rec, r)
	if res := r.Result(); res.Stdout != "agent\n" || !res.OK {
		t.Fatalf("agent run: %+v", res)
	}
	if started, released := c.counts(); started != 1 || released != 1 {
		t.Fatalf("confined %d, released %d; want 1 and 1", started, released)
	}
	wait(t, rec, start(t, m, Spec{Command: "echo mine", Owner: "tab-1"}))
	if started, _ := c.counts(); started != 1 {
		t.Fatalf("a user's run was confined")
	}
}

func TestRefusedConfinementFailsTheRun(t *testing.T) {
	c := &confiner{refuse: errors.New("cannot confine the process: no")}
	m, rec := newTestManager(t, Options{Confine: c.confine})
	r := start(t, m, Spec{Command: "echo never", Capture: true})
	last := wait(t, rec, r)
	if last.Kind != KindError || !strings.Contains(last.Data, "cannot confine") {
		t.Fatalf("last event %+v", last)
	}
	if info := r.Info(); info.Status != StatusError {
		t.Fatalf("info %+v", info)
	}
	// The user's runs are not the agent's: they still start.
	wait(t, rec, start(t, m, Spec{Command: "true", Owner: "tab-1"}))
}

// No run, the agent's or the user's, sees a secret variable.
func TestSecretsAreLeftOut(t *testing.T) {
	env := []string{"PATH=/usr/bin:/bin", "ANTHROPIC_API_KEY=sk-ant", "WISP_API_TOKEN=tok", "KEEP=yes", "TERM=dumb"}
	m, rec := newTestManager(t, Options{Env: env, Secrets: []string{"ANTHROPIC_API_KEY", "WISP_API_TOKEN"}})
	for _, owner := range []string{"", "tab-1"} {
		r := start(t, m, Spec{Command: "env", Owner: owner, Capture: true})
		wait(t, rec, r)
		out := r.Result().Stdout
		if strings.Contains(out, "sk-ant") || strings.Contains(out, "tok") || !strings.Contains(out, "KEEP=yes") ||
			!strings.Contains(out, "TERM=xterm-256color") {
			t.Errorf("owner %q: environment %q", owner, out)
		}
	}
	// Without a list, Wisp's own tokens are still left out.
	plain := NewManager(Options{Env: []string{"WISP_TERMINAL_RUN_TOKEN=x", "WISP_API_TOKEN=y"}})
	if got := plain.opts.Env; len(got) != 2 || strings.HasPrefix(got[0], "WISP_") {
		t.Errorf("environment without a list of secrets: %q", got)
	}
}

// Every run, the agent's or the user's, gets the PATH Options.PATH gives, and still
// no secret.
func TestRunsGetTheGivenPATH(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "wisp-login-only-tool"), []byte("#!/bin/sh\necho found it\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	login := bin + ":/usr/bin:/bin"
	env := []string{"PATH=/usr/bin:/bin", "WISP_API_TOKEN=tok", "KEEP=yes"}
	m, rec := newTestManager(t, Options{Env: env, Secrets: []string{"WISP_API_TOKEN"}, PATH: func() string { return login }})
	for _, owner := range []string{"", "tab-1"} {
		r := start(t, m, Spec{Command: `wisp-login-only-tool; printf '%s\n' "$PATH"; env`, Owner: owner, Capture: true})
		wait(t, rec, r)
		out := r.Result().Stdout
		if !strings.HasPrefix(out, "found it\n"+login+"\n") || strings.Count(out, "PATH=") != 1 ||
			strings.Contains(out, "tok") || !strings.Contains(out, "KEEP=yes") {
			t.Errorf("owner %q: output %q", owner, out)
		}
	}
}
