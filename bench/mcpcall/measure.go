package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

type results struct{ wisp, floor benchkit.Tail }

type sumArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// calcServer serves an MCP server with the add tool on loopback.
func calcServer() (url string, closeFn func()) {
	s := sdk.NewServer(&sdk.Implementation{Name: "calc", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Adds two numbers"},
		func(_ context.Context, _ *sdk.CallToolRequest, in sumArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	return srv.URL, srv.Close
}

type bench struct {
	app     *app.App
	client  *http.Client
	session *sdk.ClientSession
}

func measure(ctx context.Context, tmp string, cfg config) (results, error) {
	url, stop := calcServer()
	defer stop()
	total := cfg.runs + cfg.warmup + 1 // the first round is approved for good
	fake := llmtest.New()
	defer fake.Close()
	turns := make([]llmtest.Turn, 0, 2*total)
	for i := range total {
		turns = append(turns,
			llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call(fmt.Sprintf("call_%d", i), "calc__add", map[string]int{"a": i, "b": 1})}},
			llmtest.Turn{Text: []string{"Done."}})
	}
	fake.Script(turns...)
	state := filepath.Join(tmp, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return results{}, err
	}
	conf := `{"mcpServers":{"calc":{"url":"` + url + `"}}}`
	if err := os.WriteFile(filepath.Join(state, "wisp.json"), []byte(conf), 0o600); err != nil {
		return results{}, err
	}
	a, err := benchkit.StartServeApp(ctx, state, map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	})
	if err != nil {
		return results{}, err
	}
	defer a.Stop()
	session, err := sdk.NewClient(&sdk.Implementation{Name: "floor", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		return results{}, err
	}
	defer session.Close()
	b := &bench{app: a, client: benchkit.WithToken(benchkit.NewHTTPClient(), a.APIToken()), session: session}
	if err := b.waitRunning(ctx); err != nil {
		return results{}, err
	}
	if _, err := b.wispRound(ctx, 0, true); err != nil {
		return results{}, fmt.Errorf("the granting round: %w", err)
	}
	var wisp, floor []float64
	for i := 1; i < total; i++ {
		w, err := b.wispRound(ctx, i, false)
		if err != nil {
			return results{}, fmt.Errorf("round %d: %w", i, err)
		}
		f, err := b.floorRound(ctx, i)
		if err != nil {
			return results{}, fmt.Errorf("floor round %d: %w", i, err)
		}
		if i > cfg.warmup {
			wisp, floor = append(wisp, benchkit.Ms(w)), append(floor, benchkit.Ms(f))
		}
	}
	return results{wisp: benchkit.TailOf(wisp), floor: benchkit.TailOf(floor)}, nil
}

// waitRunning waits until Wisp's session with the server is up (it starts in the
// background), a bounded number of tries apart.
func (b *bench) waitRunning(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var out struct{ Servers []struct{ Status string } }
		req, _ := http.NewRequestWithContext(ctx, "GET", b.app.URL()+"/api/mcp/servers", nil)
		resp, err := b.client.Do(req)
		if err != nil {
			return err
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err == nil && len(out.Servers) == 1 && out.Servers[0].Status == "running" {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("the MCP server never ran in Wisp")
}

// wispRound sends a message; the model asks for add, and the round times tool_start
// → tool_end. The first round approves the tool for good.
func (b *bench) wispRound(ctx context.Context, i int, grant bool) (time.Duration, error) {
	var conv struct{ Conversation struct{ ID string } }
	if err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/conversations", map[string]any{}, &conv); err != nil {
		return 0, err
	}
	body, _ := json.Marshal(map[string]string{"text": "add"})
	resp, err := benchkit.OpenSSE(ctx, b.client, b.app.URL()+"/api/conversations/"+conv.Conversation.ID+"/messages/stream?dialect=delta", body)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	frames := bufio.NewReader(resp.Body)
	if _, err := benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "tool_start" }); err != nil {
		return 0, err
	}
	start := time.Now()
	if grant {
		paused, err := benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "run_paused" })
		if err != nil {
			return 0, err
		}
		id, _ := paused["approvalId"].(string)
		if err := benchkit.PostJSON(ctx, b.client, b.app.URL()+"/api/approvals/"+id, map[string]string{"decision": "approve_always"}, &struct{}{}); err != nil {
			return 0, err
		}
	}
	end, err := benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "tool_end" })
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if want := fmt.Sprint(i + 1); end["result"] != want {
		return 0, fmt.Errorf("tool_end %v, want the result %s", end, want)
	}
	_, err = benchkit.SSEUntil(frames, func(f map[string]any) bool { return f["type"] == "done" })
	return took, err
}

// floorRound calls the same tool directly.
func (b *bench) floorRound(ctx context.Context, i int) (time.Duration, error) {
	start := time.Now()
	res, err := b.session.CallTool(ctx, &sdk.CallToolParams{Name: "add", Arguments: map[string]int{"a": i, "b": 1}})
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if text, ok := res.Content[0].(*sdk.TextContent); !ok || text.Text != fmt.Sprint(i+1) {
		return 0, fmt.Errorf("the direct call said %+v", res.Content)
	}
	return took, nil
}
