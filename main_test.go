package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCommandLine(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"version"}, 0, "wisp dev", ""},
		{[]string{"help"}, 0, "wisp serve [flags]", ""},
		{[]string{"--help"}, 0, "wisp serve [flags]", ""},
		{[]string{"serve", "-h"}, 0, "Usage:", ""},
		{[]string{"dance"}, 2, "", `unknown command "dance"`},
		{[]string{"serve", "--bogus"}, 2, "", "flag provided but not defined"},
		{[]string{"serve", "--port", "70000"}, 2, "", "--port must be 0-65535"},
		{[]string{"serve", "--host", "0.0.0.0", "--state-dir", "STATE"}, 1, "", "without an API token"},
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", noBus) // never the keyring of the desktop running the tests
	for _, tc := range cases {
		t.Setenv("WISP_API_TOKEN", "")
		var out, errOut bytes.Buffer
		args := tc.args
		for i, a := range args {
			if a == "STATE" {
				args[i] = t.TempDir()
			}
		}
		if code := run(args, &out, &errOut); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, errOut.String())
		}
		if !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.err) {
			t.Errorf("%v: stdout %q stderr %q", tc.args, out.String(), errOut.String())
		}
	}
}

// TestMain lets a test run the wisp command in a child process: the test binary,
// started again with WISP_TEST_MAIN=1, is wisp.
func TestMain(m *testing.M) {
	if os.Getenv("WISP_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// noBus is a session bus address where no bus listens: the tests' Wisps never reach
// the keyring of the desktop running them, unless a test gives them a bus.
const noBus = "unix:path=/nonexistent/wisp-test-bus"

// wispCommand is `wisp args...` in a child process, with a clean environment.
func wispCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WISP_TEST_MAIN=1", "WISP_API_TOKEN=", "WISP_CONFIG_PATH=", "WISP_STATE_DIR=",
		"WISP_PORT=", "WISP_OLLAMA_URL=http://127.0.0.1:9", "DBUS_SESSION_BUS_ADDRESS="+noBus)
	return cmd
}

// serving starts `wisp serve` on dir, with env added to its environment, and returns
// it once it listens, with its URL.
func serving(t *testing.T, dir string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := wispCommand(context.Background(), "serve", "--state-dir", dir, "--port", "0")
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "Wisp is listening on "); ok {
				urls <- url
			}
		}
		close(urls)
	}()
	select {
	case url, ok := <-urls:
		if !ok {
			t.Fatalf("wisp serve ended without listening: %s", stderr.String())
		}
		return cmd, url
	case <-time.After(60 * time.Second):
		t.Fatalf("wisp serve did not listen: %s", stderr.String())
		return nil, ""
	}
}

// One Wisp per state folder, across processes: a second `wisp serve` on the folder
// exits 1 naming the first; after the first is killed (-9, no chance to clean up) a
// new one starts, and stops cleanly.
func TestOneWispPerStateFolder(t *testing.T) {
	dir := t.TempDir()
	first, url := serving(t, dir)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	second := wispCommand(ctx, "serve", "--state-dir", dir, "--port", "0")
	second.Stdout, second.Stderr = &stdout, &stderr
	err := second.Run()
	var exit *exec.ExitError
	want := fmt.Sprintf("wisp: another Wisp is already running on this state folder (%s, pid %d)", url, first.Process.Pid)
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), want) {
		t.Fatalf("second wisp serve: %v, stderr %q, want exit 1 and %q", err, stderr.String(), want)
	}
	if strings.Contains(stdout.String(), "listening") {
		t.Fatalf("the second one listened: %s", stdout.String())
	}

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	third, _ := serving(t, dir)
	if err := third.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := third.Wait(); err != nil {
		t.Fatalf("wisp serve after SIGTERM: %v", err)
	}
}
