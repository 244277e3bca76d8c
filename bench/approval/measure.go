package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/confine"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

type results struct {
	wisp, floor, unconfined benchkit.Tail
	level                   string // the confined App's confinement
}

type bench struct {
	app    *app.App
	client *http.Client
	fake   *llmtest.Server
}

// measure alternates, in one run, an approval on a Wisp whose agent commands are
// confined (as it starts by default), the same on a Wisp with confinement turned off,
// and the floor: a direct terminal run on the first.
func measure(ctx context.Context, tmp string, cfg config) (results, error) {
	total := cfg.runs + cfg.warmup
	confined, err := startBench(ctx, tmp, "confined", total, confine.Auto)
	if err != nil {
		return results{}, err
	}
	defer confined.stop()
	unconfined, err := startBench(ctx, tmp, "unconfined", total, confine.Off)
	if err != nil {
		return results{}, err
	}
	defer unconfined.stop()
	res := results{level: confined.level(ctx)}
	var wisp, floor, off []float64
	for i := range total {
		w, err := confined.approvalRound(ctx)
		if err != nil {
			return results{}, fmt.Errorf("approval round %d: %w", i, err)
		}
		u, err := unconfined.approvalRound(ctx)
		if err != nil {
			return results{}, fmt.Errorf("unconfined approval round %d: %w", i, err)
		}
		f, err := confined.floorRound(ctx)
		if err != nil {
			return results{}, fmt.Errorf("floor round %d: %w", i, err)
		}
		if i >= cfg.warmup {
			wisp, floor, off = append(wisp, benchkit.Ms(w)), append(floor, benchkit.Ms(f)), append(off, benchkit.Ms(u))
		}
	}
	res.wisp, res.floor, res.unconfined = benchkit.TailOf(wisp), benchkit.TailOf(floor), benchkit.TailOf(off)
	return res, nil
}

// startBench starts a Wisp of its own (state folder tmp/name) whose fake model asks
// for the command total times.
func startBench(ctx context.Context, tmp, name string, total int, mode confine.Mode) (*bench, error) {
	fake := llmtest.New()
	turns := make([]llmtest.Turn, 0, 2*total)
	for i := range total {
		turns = append(turns,
			llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call(fmt.Sprintf("call_%d", i), "RUN_SHELL",
				map[string]string{"command": command, "reason": "say hi"})}},
			llmtest.Turn{Text: []string{"It said hi."}})
	}
	fake.Script(turns...)
	state := filepath.Join(tmp, name)
	if err := os.MkdirAll(state, 0o700); err != nil {
		fake.Close()
		return nil, err
	}
	conf := `{"features":{"shellEnabled":true},"terminal":{"cwd":"` + tmp + `"}}`
	if err := os.WriteFile(filepath.Join(state, "wisp.json"), []byte(conf), 0o600); err != nil {
		fake.Close()
		return nil, err
	}
	a, err := benchkit.StartServeApp(ctx, state, map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	}, func(o *app.Options) { o.Confine = mode })
	if err != nil {
		fake.Close()
		return nil, err
	}
	return &bench{app: a, client: benchkit.WithToken(benchkit.NewHTTPClient(), a.APIToken()), fake: fake}, nil
}

func (b *bench) stop() {
	b.app.Stop()
	b.fake.Close()
}

// level is the App's confinement, as GET /api/status says.
func (b *bench) level(ctx context.Context) string {
	var st struct{ Confinement string }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.app.URL()+"/api/status", nil)
	if err != nil {
		return "unknown"
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return "unknown"
	}
	defer resp.Body.Close()
	if json.NewDecoder(resp.Body).Decode(&st) != nil || st.Confinement == "" {
		return "unknown"
	}
	return st.Confinement
}

// approvalRound sends a message in a new conversation, waits for the pause, approves
// and times until a frame shows the command's output.
func (b *bench) approvalRound(ctx context.Context) (time.Duration, error) {
	var conv struct{ Conversation struct{ ID string } }
	if err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/conversations", map[string]any{}, &conv); err != nil {
		return 0, err
	}
	body, _ := json.Marshal(map[string]string{"text": "say hi"})
	resp, err := benchkit.OpenSSE(ctx, b.client, b.app.URL()+"/api/conversations/"+conv.Conversation.ID+"/messages/stream?dialect=delta", body)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	frames := bufio.NewReader(resp.Body)
	paused, err := benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "run_paused" })
	if err != nil {
		return 0, err
	}
	id, _ := paused["approvalId"].(string)
	start := time.Now()
	if err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/approvals/"+id, map[string]string{"decision": "approve"}, &struct{}{}); err != nil {
		return 0, err
	}
	if _, err := benchkit.SSEUntil(frames, func(f map[string]any) bool {
		text, _ := f["text"].(string)
		return f["type"] == "token" && f["callback"] == true && strings.Contains(text, "\nhi\n")
	}); err != nil {
		return 0, err
	}
	took := time.Since(start)
	_, err = benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "done" })
	return took, err
}

// floorRound runs the same command directly, output captured.
func (b *bench) floorRound(ctx context.Context) (time.Duration, error) {
	var out struct {
		Stdout string
		OK     bool
	}
	start := time.Now()
	err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/terminal/run",
		map[string]any{"command": command, "clientId": "bench", "captureOutput": true}, &out)
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if !out.OK || out.Stdout != "hi\n" {
		return 0, fmt.Errorf("the direct run said %q (ok %v)", out.Stdout, out.OK)
	}
	return took, nil
}
