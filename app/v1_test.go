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

	// A failing model: server_error for both shapes.
	c.fake.Script(llmtest.ErrorTurn(500, "boom"))
	_, err = client.Messages.New(ctx, v1Params("hi"))
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || !strings.Contains(apiErr.Error(), "server_error") {
		t.Fatalf("error %v", err)
	}
	c.fake.Script(llmtest.ErrorTurn(500, "boom"))
	failing := client.Messages.NewStreaming(ctx, v1Params("hi"))
	defer failing.Close()
	for failing.Next() {
	}
	if err := failing.Err(); err == nil || !strings.Contains(err.Error(), "server_error") {
		t.Fatalf("stream error %v", err)
	}

	models, err := client.Models.List(ctx, anthropic.ModelListParams{})
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != "Wisp" {
		t.Fatalf("models %+v %v", models, err)
	}
}

// Without a model, /v1/messages says service_unavailable.
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
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || !strings.Contains(apiErr.Error(), "service_unavailable") {
			t.Fatalf("stream=%v: %v", stream, err)
		}
	}
	var out map[string]any
	if code := c.call("POST", "/v1/messages", map[string]any{"messages": []any{}}, &out); code != 400 || out["type"] != "error" {
		t.Fatalf("empty messages: %d %v", code, out)
	}
}
