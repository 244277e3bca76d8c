package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"mime/multipart"
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
		{"route", `[{"when":{"systemContains":"Summarize"},"text":"sum"},{"text":"in line"}]`, 1, ""},
		{"empty when", `[{"when":{},"text":"sum"}]`, 0, "give systemContains or lastUserContains"},
		{"unknown when field", `[{"when":{"system":"x"},"text":"sum"}]`, 0, "system"},
		{"when not an object", `[{"when":"x","text":"sum"}]`, 0, "when"},
		{"unknown field beside when", `[{"when":{"systemContains":"x"},"txet":"sum"}]`, 0, "txet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := parseScript([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("parseScript = %v, want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(sc.turns) != tt.wantTurns {
				t.Fatalf("parseScript = %d turns, %v; want %d", len(sc.turns), err, tt.wantTurns)
			}
		})
	}
	sc, _ := parseScript([]byte(`[{"text":"Hello there","delay":"5ms"},{"when":{"lastUserContains":"x"},"text":"Routed reply","cacheReadTokens":3}]`))
	if got := sc.turns[0]; len(got.Text) != 2 || got.Text[1] != " there" || got.Delay != 5*time.Millisecond {
		t.Errorf("turn = %+v", got)
	}
	if len(sc.routes) != 1 || sc.routes[0].when.LastUserContains != "x" || strings.Join(sc.routes[0].turn.Text, "") != "Routed reply" || sc.routes[0].turn.CacheReadTokens != 3 {
		t.Errorf("routes = %+v", sc.routes)
	}
}

func TestReadScriptMissing(t *testing.T) {
	if _, err := readScript(filepath.Join(t.TempDir(), "nope.json")); err == nil {
		t.Error("readScript of a missing file succeeded")
	}
}

func TestRun(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	turns := `[{"text":"Scripted reply"},{"when":{"systemContains":"Summarize"},"text":"A summary"}]`
	if err := os.WriteFile(script, []byte(turns), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"--addr", "127.0.0.1:0", "--delay", "1ms", "--script", script, "--window", "300"}, outW, io.Discard)
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
	const ping = `{"model":"fake","messages":[{"role":"user","content":"ping"}]}`
	const summarize = `{"model":"fake","messages":[{"role":"system","content":"Summarize the conversation."},{"role":"user","content":"ping"}]}`
	long := `{"model":"fake","messages":[{"role":"user","content":"` + strings.Repeat("word ", 400) + `"}]}`
	for i, exchange := range []struct{ body, want string }{
		{summarize, `"content":"A summary"`},
		{ping, `"content":"Scripted reply"`},
		{summarize, `"content":"A summary"`}, // a route is not used up
		{ping, `"content":"You said: ping"`},
		{long, `"code":"context_length_exceeded"`},
	} {
		res, err := client.Post(m[1]+"/v1/chat/completions", "application/json", strings.NewReader(exchange.body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), exchange.want) {
			t.Errorf("exchange %d: reply = %s, want %s", i, body, exchange.want)
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
	if c := run(context.Background(), []string{"--window", "-1"}, io.Discard, io.Discard); c != 2 {
		t.Errorf("exit code = %d, want 2", c)
	}
	if c := run(context.Background(), []string{"--script", filepath.Join(t.TempDir(), "missing.json")}, io.Discard, io.Discard); c != 1 {
		t.Errorf("exit code = %d, want 1", c)
	}
}

// start runs fakellm with args until the test ends, and returns its URL.
func start(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), outW, io.Discard)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if c := <-code; c != 0 {
			t.Errorf("exit code = %d, want 0", c)
		}
	})
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("read the first line: %v", err)
	}
	go io.Copy(io.Discard, outR)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "fake LLM listening on ")
	if !ok {
		t.Fatalf("first line = %q", line)
	}
	return url
}

func TestRunVision(t *testing.T) {
	// A 1×1 PNG.
	const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
	image := `{"model":"fake","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + png + `"}},{"type":"text","text":"what?"}]}]}`
	show := `{"model":"fake"}`
	for _, c := range []struct {
		args             []string
		wantShow, wantIm string
	}{
		{nil, `"vision"`, `"content":"I see 1 image: 1×1 image/png. You said: what?"`},
		{[]string{"--no-vision"}, `"capabilities":["completion","tools"]`, `missing data required for image input`},
	} {
		url := start(t, c.args...)
		tr := &http.Transport{}
		client := &http.Client{Transport: tr}
		for _, ex := range []struct{ path, body, want string }{
			{"/api/show", show, c.wantShow},
			{"/v1/chat/completions", image, c.wantIm},
		} {
			res, err := client.Post(url+ex.path, "application/json", strings.NewReader(ex.body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.Contains(string(body), ex.want) {
				t.Errorf("%v %s: %s, want %s", c.args, ex.path, body, ex.want)
			}
		}
		tr.CloseIdleConnections()
	}
}

func TestRunAudio(t *testing.T) {
	url := start(t, "--transcript", "Scripted words", "--speech-delay", "1ms")
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	res, err := client.Post(url+"/v1/audio/speech", "application/json", strings.NewReader(`{"model":"tts-1","input":"Hello","voice":"alloy","response_format":"wav"}`))
	if err != nil {
		t.Fatal(err)
	}
	wav, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "audio/wav" || string(wav[:4]) != "RIFF" {
		t.Errorf("speech = %d %q, %d bytes", res.StatusCode, res.Header.Get("Content-Type"), len(wav))
	}

	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "speech.wav")
	fw.Write([]byte("RIFF...."))
	mw.WriteField("model", "whisper-1")
	mw.Close()
	res, err = client.Post(url+"/v1/audio/transcriptions", mw.FormDataContentType(), &form)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != `{"text":"Scripted words"}`+"\n" {
		t.Errorf("transcription = %d %s", res.StatusCode, body)
	}
	if c := run(context.Background(), []string{"--speech-delay", "-1s"}, io.Discard, io.Discard); c != 2 {
		t.Errorf("--speech-delay -1s: exit code = %d, want 2", c)
	}
}
