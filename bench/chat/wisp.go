package main

import (
	"context"
	"fmt"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// longPrompt is the user message the fake model answers with the long reply;
// any other message gets shortReply.
const longPrompt = "please stream the long reply"

var shortReply = []string{"Hello", " there", "!"}

// startFake starts the fake model in the driver's process, answering with no
// delay between chunks.
func startFake(long []string) *llmtest.Server {
	fake := llmtest.New()
	fake.Fallback(func(r llmtest.Received) llmtest.Turn {
		if r.LastUserText() == longPrompt {
			return llmtest.Turn{Text: long}
		}
		return llmtest.Turn{Text: shortReply}
	})
	return fake
}

// newConversation creates an empty conversation in Wisp and returns its id.
func (b *bench) newConversation(ctx context.Context) (string, error) {
	var out struct{ Conversation struct{ ID string } }
	err := benchkit.PostJSON(ctx, b.client, b.wisp.url+"/api/conversations", map[string]any{}, &out)
	return out.Conversation.ID, err
}

// sendWisp streams Wisp's reply to text in conversation conv, in the delta
// dialect (the UI's).
func (b *bench) sendWisp(ctx context.Context, conv, text string) (seen, error) {
	body := fmt.Appendf(nil, `{"text":%q}`, text)
	s, err := stream(ctx, b.client, b.wisp.url+"/api/conversations/"+conv+"/messages/stream?dialect=delta", body)
	if err == nil && s.runID == "" {
		err = fmt.Errorf("no X-Wisp-Run-Id header")
	}
	return s, err
}

// sendRelay streams the bare relay's reply to text.
func (b *bench) sendRelay(ctx context.Context, text string) (seen, error) {
	return stream(ctx, b.client, b.relay.url+"/stream", fmt.Appendf(nil, `{"text":%q}`, text))
}
