package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestParseScript(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantTurns int
		wantErr   string
	}{
		{"empty array", `[]`, 0, ""},
		{"turns", `[{"text":"Hello there","delay":"5ms"},{"toolCalls":[{"name":"run","arguments":{"cmd":"ls"}}]},{"status":401,"errorMessage":"bad key"}]`, 3, ""},
		{"not an array", `{"text":"hi"}`, 0, "want a JSON array of turns"},
		{"unknown field", `[{"text":"hi","dealy":"5ms"}]`, 0, "dealy"},
		{"bad json", `[{`, 0, "unexpected end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turns, err := parseScript([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("parseScript = %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(turns) != tt.wantTurns {
				t.Fatalf("parseScript = %d turns, %v; want %d", len(turns), err, tt.wantTurns)
			}
		})
	}
	turns, _ := parseScript([]byte(`[{"text":"Hello there","delay":"5ms"}]`))
	if got := turns[0]; len(got.Text) != 2 || got.Text[1] != " there" || got.Delay != 5*time.Millisecond {
		t.Errorf("turn = %+v", got)
	}
}

func TestReadScriptMissing(t *testing.T) {
	if _, err := readScript(filepath.Join(t.TempDir(), "nope.json")); err == nil {
		t.Error("readScript of a missing file succeeded")
	}
}

func TestRun(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`[{"text":"Scripted reply"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--addr", "127.0.0.1:0", "--delay", "1ms", "--script", script}, outW, io.Discard)
		outW.Close()
	}()

	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("read the first line: %v", err)
	}
	m := regexp.MustCompile(`^fake LLM listening on (http://127\.0\.0\.1:\d+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line = %q", line)
	}
	go io.Copy(io.Discard, outR) // nothing else is expected, but never block run

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for _, want := range []string{"Scripted reply", "You said: ping"} {
		res, err := client.Post(m[1]+"/v1/chat/completions", "application/json",
			strings.NewReader(`{"model":"fake","messages":[{"role":"user","content":"ping"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), `"content":"`+want+`"`) {
			t.Errorf("reply = %s, want %q", body, want)
		}
	}

	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code = %d, want 0", c)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("run did not return after the context ended")
	}
}

func TestRunBadFlags(t *testing.T) {
	if c := run(context.Background(), []string{"--nope"}, io.Discard, io.Discard); c != 2 {
		t.Errorf("exit code = %d, want 2", c)
	}
	if c := run(context.Background(), []string{"--script", filepath.Join(t.TempDir(), "missing.json")}, io.Discard, io.Discard); c != 1 {
		t.Errorf("exit code = %d, want 1", c)
	}
}
