package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func anthropicClient(c *chatApp) anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(c.URL()), option.WithAPIKey("unused"), option.WithMaxRetries(0))
}

func v1Params(text string) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model: anthropic.Model("Wisp"), MaxTokens: 256,
		Messages: []anthropic.MessageParam{
			anthropic.NewUserMessage(anthropic.NewTextBlock("earlier")),
			anthropic.NewAssistantMessage(anthropic.NewTextBlock("noted")),
			anthropic.NewUserMessage(anthropic.NewTextBlock(text)),
		},
	}
}

// /v1/messages answered by the agent, called by the official Anthropic SDK.
func TestV1MessagesWithAnthropicSDK(t *testing.T) {
	c := startChat(t, t.TempDir(), musicAction())
	client := anthropicClient(c)
	ctx := context.Background()

	c.fake.Script(llmtest.Turn{Text: []string{"Hello ", "from Wisp"}})
	msg, err := client.Messages.New(ctx, v1Params("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != "Hello from Wisp" || msg.Role != "assistant" || msg.StopReason != "end_turn" {
		t.Fatalf("message %+v", msg)
	}
	sent := c.fake.Requests()[0].Messages
	if len(sent) != 3 || sent[0].Text != "earlier" || sent[1].Role != llm.RoleAssistant {
		t.Fatalf("the agent did not see the caller's conversation: %+v", sent)
	}

	c.fake.Script(
		llmtest.Turn{Text: []string{"On it."}, ToolCalls: []llm.ToolCall{llmtest.Call("c1", "PLAY_MUSIC", map[string]string{"song": "Song"})}},
		llmtest.Turn{Text: []string{"Enjoy!"}},
	)
	stream := client.Messages.NewStreaming(ctx, v1Params("play Song"))
	defer stream.Close()
	var types []string
	var text strings.Builder
	for stream.Next() {
		ev := stream.Current()
		if len(types) == 0 || types[len(types)-1] != ev.Type {
			types = append(types, ev.Type)
		}
		if ev.Type == "content_block_delta" {
			text.WriteString(ev.Delta.Text)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	want := "message_start,content_block_start,content_block_delta,content_block_stop,message_delta,message_stop"
	if got := strings.Join(types, ","); got != want {
		t.Fatalf("events %s", got)
	}
	if got := text.String(); got != "On it.\n\nNow playing: **Song**\n\nEnjoy!" {
		t.Fatalf("streamed text %q", got)
	}

	// A failing model: a gateway's 502, api_error, for both shapes.
	c.fake.Script(llmtest.ErrorTurn(500, "boom"))
	_, err = client.Messages.New(ctx, v1Params("hi"))
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 502 || !strings.Contains(apiErr.Error(), "api_error") {
		t.Fatalf("error %v", err)
	}
	c.fake.Script(llmtest.ErrorTurn(500, "boom"))
	failing := client.Messages.NewStreaming(ctx, v1Params("hi"))
	defer failing.Close()
	for failing.Next() {
	}
	if err := failing.Err(); err == nil || !strings.Contains(err.Error(), "api_error") {
		t.Fatalf("stream error %v", err)
	}

	models, err := client.Models.List(ctx, anthropic.ModelListParams{})
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != "Wisp" {
		t.Fatalf("models %+v %v", models, err)
	}
}

// Without a model, /v1/messages says so with a 503 api_error.
func TestV1MessagesWithoutProvider(t *testing.T) {
	a := startApp(t, testOptions(t, t.TempDir(), nil))
	t.Cleanup(func() { a.Stop() })
	c := &chatApp{App: a, t: t}
	client := anthropicClient(c)
	for _, stream := range []bool{false, true} {
		var err error
		if stream {
			s := client.Messages.NewStreaming(context.Background(), v1Params("hi"))
			for s.Next() {
			}
			err = s.Err()
			s.Close()
		} else {
			_, err = client.Messages.New(context.Background(), v1Params("hi"))
		}
		var apiErr *anthropic.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || !strings.Contains(apiErr.Error(), "No model is set up") {
			t.Fatalf("stream=%v: %v", stream, err)
		}
	}
	var out map[string]any
	if code := c.call("POST", "/v1/messages", map[string]any{"messages": []any{}}, &out); code != 400 || out["type"] != "error" {
		t.Fatalf("empty messages: %d %v", code, out)
	}
}

// /v1 behaves like Anthropic's API where the SDK can tell: models.retrieve, typed
// not-found and authentication errors, max_tokens required and given to the model,
// and the model's max_tokens stop reported as such.
func TestV1LikeAnthropic(t *testing.T) {
	c := startChat(t, t.TempDir())
	client := anthropicClient(c)
	ctx := context.Background()

	model, err := client.Models.Get(ctx, "Wisp", anthropic.ModelGetParams{})
	if err != nil || model.ID != "Wisp" {
		t.Fatalf("models.retrieve: %+v %v", model, err)
	}
	var apiErr *anthropic.Error
	if _, err := client.Models.Get(ctx, "claude-nope", anthropic.ModelGetParams{}); !errors.As(err, &apiErr) || apiErr.StatusCode != 404 ||
		!strings.Contains(apiErr.Error(), "not_found_error") {
		t.Errorf("an unknown model: %v", err)
	}
	var out map[string]any
	if code := c.call("GET", "/v1/messages/batches", nil, &out); code != 404 || out["type"] != "error" {
		t.Errorf("an unknown /v1 route: %d %v", code, out)
	}
	if code := c.call("GET", "/v1/messages", nil, &out); code != 405 || out["error"].(map[string]any)["type"] != "invalid_request_error" {
		t.Errorf("GET /v1/messages: %d %v", code, out)
	}

	// max_tokens is required, and given to the model.
	if code := c.call("POST", "/v1/messages", map[string]any{"model": "Wisp", "messages": []any{map[string]any{"role": "user", "content": "hi"}}}, &out); code != 400 ||
		!strings.Contains(out["error"].(map[string]any)["message"].(string), "max_tokens") {
		t.Errorf("without max_tokens: %d %v", code, out)
	}
	c.fake.Script(llmtest.Turn{Text: []string{"Once ", "upon"}, StopReason: "max_tokens"})
	params := v1Params("tell me a long story")
	params.MaxTokens = 2
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.fake.Requests(); got[len(got)-1].MaxTokens != 2 {
		t.Errorf("the model was asked for %d tokens", got[len(got)-1].MaxTokens)
	}
	if msg.StopReason != "max_tokens" || msg.Content[0].Text != "Once upon" {
		t.Errorf("message %+v", msg)
	}
}
