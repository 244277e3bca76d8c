package app

import (
	"context"
	"errors"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func openaiClient(c *chatApp, key string) openai.Client {
	return openai.NewClient(option.WithBaseURL(c.URL()+"/v1"), option.WithAPIKey(key), option.WithMaxRetries(0))
}

func chatParams(text string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: openai.ChatModel("Wisp"), MaxTokens: openai.Int(64),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("you are a test"),
			openai.UserMessage("earlier"),
			openai.AssistantMessage("noted"),
			openai.UserMessage(text),
		},
	}
}

// /v1/chat/completions answered by the agent, called by the official openai-go client.
func TestChatCompletionsWithOpenAISDK(t *testing.T) {
	c := startChat(t, t.TempDir())
	client := openaiClient(c, "unused")
	ctx := context.Background()

	c.fake.Script(llmtest.Turn{Text: []string{"Hello ", "from Wisp"}})
	got, err := client.Chat.Completions.New(ctx, chatParams("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Choices) != 1 || got.Choices[0].Message.Content != "Hello from Wisp" || got.Choices[0].FinishReason != "stop" ||
		got.Object != "chat.completion" || got.Usage.TotalTokens != got.Usage.PromptTokens+got.Usage.CompletionTokens {
		t.Fatalf("completion %+v", got)
	}
	sent := c.fake.Requests()[0]
	if len(sent.Messages) != 3 || sent.Messages[0].Text != "earlier" || sent.Messages[1].Role != llm.RoleAssistant || sent.MaxTokens != 64 {
		t.Fatalf("the model got %+v (max tokens %d)", sent.Messages, sent.MaxTokens)
	}

	// Streaming, with usage at the end, and a stop at the token limit.
	c.fake.Script(llmtest.Turn{Text: []string{"Once ", "upon ", "a"}, StopReason: "max_tokens"})
	params := chatParams("a story")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	acc := openai.ChatCompletionAccumulator{}
	chunks := 0
	for stream.Next() {
		acc.AddChunk(stream.Current())
		chunks++
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if chunks < 4 || acc.Choices[0].Message.Content != "Once upon a" || acc.Choices[0].FinishReason != "length" || acc.Usage.TotalTokens == 0 {
		t.Fatalf("streamed %d chunks: %+v", chunks, acc.ChatCompletion)
	}

	// Errors the SDK types: a bad request, a wrong key; and the shared model list.
	var apiErr *openai.Error
	_, err = client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "Wisp",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.AssistantMessage("no question")}})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Type != "invalid_request_error" {
		t.Errorf("a bad request: %v", err)
	}
	models, err := client.Models.List(ctx)
	if err != nil || len(models.Data) != 1 || models.Data[0].ID != "Wisp" || models.Data[0].OwnedBy != "wisp" {
		t.Errorf("models %+v %v", models, err)
	}
}
