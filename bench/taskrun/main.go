// Command taskrun is Wisp's benchmark of a scheduled task's start: the time from a
// task's slot coming due to its run's first token at a client, against a user's
// message to its first token. Both go through one real Wisp App in this process,
// answered by the fake LLM with the same reply, rounds alternating.
//
// A task round creates a one-off task (POST /api/tasks, its own new conversation)
// due one minute on the App's fake clock, moves the clock on (the scheduler's
// timer fires at once), follows /ws until the task's run is announced (task-updated
// naming its runId), opens the run's stream as the UI does and times until its
// first token frame. The floor round POSTs a message on a new conversation's SSE
// route and times until its first token frame. The difference is what a task adds:
// the scheduler's pass, the claim in the run's first transaction, the frame that
// tells clients and the client's second request. The task's time is also split
// where the driver sees it: the task-updated frame read, the stream's headers read.
//
// Before each floor round the fake clock moves on a second, untimed: a user's
// message comes later than the one before, and the tools' texts that carry the time
// (SCHEDULE_REMINDER's, to the second) are counted again as for every real message;
// with the clock frozen the floor reused counts no user's message gets.
//
// Usage (see `make bench`):
//
//	go run -tags sqlite_fts5 ./bench/taskrun --out BENCHMARKS.md
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// target is the most a task's start may cost over a user's message, as a ratio.
const target = 1.2

type config struct {
	runs, warmup int
	out, profile string
}

// phases are the parts of a task round's time the driver sees, in order.
type phases struct{ frame, open, token []float64 }

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 200, "recorded rounds of each")
	flag.IntVar(&cfg.warmup, "warmup", 10, "unrecorded rounds of each before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose taskrun section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	benchkit.Main("taskrun", cfg.profile, func(ctx context.Context, tmp string) error {
		task, floor, split, err := measure(ctx, tmp, cfg)
		if err != nil {
			return err
		}
		return benchkit.Publish(cfg.out, "taskrun", intro, report(task, floor, split, cfg))
	})
}

const intro = `## Scheduled task: due → first token

A one-off task coming due (the App's fake clock moved past its time) to its
run's first token frame at a client that learnt of the run from /ws
(` + "`task-updated`" + `) and opened its stream, against a user's message
(POST …/messages/stream) to its first token frame, rounds alternating on one
Wisp, the same fake model and reply; before each message the fake clock moves on
a second (untimed), as time passes between a user's messages. Target: ≤ 1.2×. Driver: ` + "`bench/taskrun`" + ` (` + "`make bench`" + `).
`

func report(task, floor benchkit.Tail, split phases, cfg config) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/taskrun")
	fmt.Fprintf(&b, "%s · %d recorded rounds of each after %d unrecorded.\n\n", env.Line(), cfg.runs, cfg.warmup)
	b.WriteString("| | p50 | p99 |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| task due → its run's first token | %s | %s |\n", benchkit.Msec(task.P50), benchkit.Msec(task.P99))
	for _, p := range []struct {
		name string
		ms   []float64
	}{
		{"· due → `task-updated` read at the client", split.frame},
		{"· → the run's stream open (its headers read)", split.open},
		{"· → its first token read", split.token},
	} {
		t := benchkit.TailOf(p.ms)
		fmt.Fprintf(&b, "| %s | %s | %s |\n", p.name, benchkit.Msec(t.P50), benchkit.Msec(t.P99))
	}
	fmt.Fprintf(&b, "| floor: user message → first token | %s | %s |\n", benchkit.Msec(floor.P50), benchkit.Msec(floor.P99))
	ratio := task.P50 / floor.P50
	fmt.Fprintf(&b, "| **ratio** (target ≤ %.1f× at p50: %s) | **%.2f×** | **%.2f×** |\n", target,
		benchkit.Verdict(ratio <= target), ratio, task.P99/floor.P99)
	return b.String()
}

type bench struct {
	app    *app.App
	clk    *clock.Fake
	client *http.Client
	ws     *websocket.Conn
}

func measure(ctx context.Context, tmp string, cfg config) (task, floor benchkit.Tail, split phases, err error) {
	total := cfg.runs + cfg.warmup
	fake := llmtest.New()
	defer fake.Close()
	turns := make([]llmtest.Turn, 0, 2*total)
	for range 2 * total {
		turns = append(turns, llmtest.Turn{Text: []string{"Here is ", "what is new."}})
	}
	fake.Script(turns...)
	clk := clock.NewFake(time.Now())
	a, err := benchkit.StartServeApp(ctx, filepath.Join(tmp, "state"), map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	}, func(o *app.Options) { o.Clock = clk })
	if err != nil {
		return task, floor, split, err
	}
	defer a.Stop()
	ws, err := dialWithHeader(ctx, a.Connection().WSURL, a.APIToken())
	if err != nil {
		return task, floor, split, err
	}
	defer ws.Close()
	b := &bench{app: a, clk: clk, client: benchkit.WithToken(benchkit.NewHTTPClient(), a.APIToken()), ws: ws}
	var tasks, floors []float64
	for i := range total {
		t, parts, err := b.taskRound(ctx)
		if err != nil {
			return task, floor, split, fmt.Errorf("task round %d: %w", i, err)
		}
		f, err := b.floorRound(ctx)
		if err != nil {
			return task, floor, split, fmt.Errorf("floor round %d: %w", i, err)
		}
		if i >= cfg.warmup {
			tasks, floors = append(tasks, benchkit.Ms(t)), append(floors, benchkit.Ms(f))
			split.frame = append(split.frame, benchkit.Ms(parts[0]))
			split.open = append(split.open, benchkit.Ms(parts[1]))
			split.token = append(split.token, benchkit.Ms(parts[2]))
		}
	}
	return benchkit.TailOf(tasks), benchkit.TailOf(floors), split, nil
}

// dialWithHeader connects to /ws with the token `wisp serve` keeps in the
// Authorization header, and returns once its status frame came.
func dialWithHeader(ctx context.Context, url, token string) (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	c, _, err := d.DialContext(ctx, url, http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		return nil, err
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var f struct{ Type string }
		if err := c.ReadJSON(&f); err != nil {
			c.Close()
			return nil, err
		}
		if f.Type == "status" {
			_ = c.SetReadDeadline(time.Time{})
			return c, nil
		}
	}
}

// taskRound makes a task due in a minute, moves the clock on and times until its
// run's first token; parts are the times from due to the frame read, from there to
// the stream's headers read, and from there to the first token.
func (b *bench) taskRound(ctx context.Context) (time.Duration, [3]time.Duration, error) {
	var parts [3]time.Duration
	at := b.clk.Now().Add(time.Minute).Format(time.RFC3339Nano)
	var created struct{ Task struct{ ID string } }
	if err := benchkit.PostJSONStatus(ctx, b.client, b.app.URL()+"/api/tasks",
		map[string]any{"prompt": "What is new?", "at": at}, &created, http.StatusCreated); err != nil {
		return 0, parts, err
	}
	start := time.Now()
	b.clk.Advance(time.Minute)
	runID, err := b.announced(created.Task.ID)
	if err != nil {
		return 0, parts, err
	}
	heard := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.app.URL()+"/api/runs/"+runID+"/stream?dialect=delta", nil)
	if err != nil {
		return 0, parts, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, parts, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, parts, fmt.Errorf("stream: status %d", resp.StatusCode)
	}
	opened := time.Now()
	took, err := firstToken(resp.Body, start)
	if err != nil {
		return 0, parts, err
	}
	parts = [3]time.Duration{heard.Sub(start), opened.Sub(heard), took - opened.Sub(start)}
	return took, parts, b.delete(ctx, created.Task.ID) // Wisp keeps at most 200 tasks
}

// delete deletes a task whose run ended.
func (b *bench) delete(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, b.app.URL()+"/api/tasks/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("delete task: status %d", resp.StatusCode)
	}
	return nil
}

// announced reads /ws until a task-updated frame names the task's run.
func (b *bench) announced(taskID string) (string, error) {
	var runID string
	err := benchkit.ReadFrames(b.ws, func(_ time.Time, frame []byte) bool {
		if !bytes.Contains(frame, []byte(`"task-updated"`)) {
			return true
		}
		var f struct {
			Task struct {
				ID      string
				LastRun *struct{ RunID string }
			}
		}
		if json.Unmarshal(frame, &f) != nil || f.Task.ID != taskID || f.Task.LastRun == nil || f.Task.LastRun.RunID == "" {
			return true
		}
		runID = f.Task.LastRun.RunID
		return false
	})
	return runID, err
}

// floorRound sends a message on a new conversation and times until its first token.
func (b *bench) floorRound(ctx context.Context) (time.Duration, error) {
	var conv struct{ Conversation struct{ ID string } }
	if err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/conversations", map[string]any{}, &conv); err != nil {
		return 0, err
	}
	body, _ := json.Marshal(map[string]string{"text": "What is new?"})
	b.clk.Advance(time.Second) // a later second than the last message: see the package doc
	start := time.Now()
	resp, err := benchkit.OpenSSE(ctx, b.client, b.app.URL()+"/api/conversations/"+conv.Conversation.ID+"/messages/stream?dialect=delta", body)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return firstToken(resp.Body, start)
}

// firstToken reads the stream to its first token, notes the time, and reads the rest
// so the run has ended before the next round.
func firstToken(body io.Reader, start time.Time) (time.Duration, error) {
	rd := bufio.NewReader(body)
	if _, err := benchkit.SSEUntil(rd, func(f map[string]any) bool { return f["type"] == "token" }); err != nil {
		return 0, err
	}
	took := time.Since(start)
	_, _ = io.Copy(io.Discard, rd)
	return took, nil
}
