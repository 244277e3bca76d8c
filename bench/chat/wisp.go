package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// throughputPrompt is the user message the fake model answers with the long
// reply; any other message gets shortReply.
const throughputPrompt = "please stream the long reply"

var shortReply = []string{"Hello", " there", "!"}

// wisp is a real Wisp App running in this process on 127.0.0.1, its model
// being the fake LLM server (llmtest) answering with no delay between chunks.
type wisp struct {
	app    *app.App
	fake   *llmtest.Server
	dir    string
	client *http.Client
}

func startWisp(ctx context.Context, dir string, long []string) (*wisp, error) {
	fake := llmtest.New()
	fake.Fallback(func(r llmtest.Received) llmtest.Turn {
		if r.LastUserText() == throughputPrompt {
			return llmtest.Turn{Text: long}
		}
		return llmtest.Turn{Text: shortReply}
	})
	env := map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	}
	a, err := benchkit.StartApp(ctx, dir, env)
	if err != nil {
		fake.Close()
		return nil, err
	}
	return &wisp{app: a, fake: fake, dir: dir, client: benchkit.NewHTTPClient()}, nil
}

func (w *wisp) stop() error {
	err := w.app.Stop()
	w.fake.Close()
	return err
}

func (w *wisp) dbPath() string { return filepath.Join(w.dir, "wisp.db") }

// newConversation creates an empty conversation and returns its id.
func (w *wisp) newConversation(ctx context.Context) (string, error) {
	var out struct{ Conversation struct{ ID string } }
	err := benchkit.PostJSON(ctx, w.client, w.app.URL()+"/api/conversations", map[string]any{}, &out)
	return out.Conversation.ID, err
}

// send streams one reply to text in conversation conv.
func (w *wisp) send(ctx context.Context, conv, text string) (seen, error) {
	body := fmt.Appendf(nil, `{"text":%q}`, text)
	s, err := stream(ctx, w.client, w.app.URL()+"/api/conversations/"+conv+"/messages/stream", body)
	if err == nil && s.runID == "" {
		err = fmt.Errorf("no X-Wisp-Run-Id header")
	}
	return s, err
}

// sendNew opens a fresh conversation (not timed) and streams one reply in it.
func (w *wisp) sendNew(ctx context.Context, text string) (seen, error) {
	conv, err := w.newConversation(ctx)
	if err != nil {
		return seen{}, err
	}
	return w.send(ctx, conv, text)
}

// fakeAlone streams the long reply straight from the fake model to the
// client, for context: how fast the model side can go on its own.
func (w *wisp) fakeAlone(ctx context.Context) (seen, error) {
	body := fmt.Appendf(nil, `{"model":"fake","stream":true,"messages":[{"role":"user","content":%q}]}`, throughputPrompt)
	return stream(ctx, w.client, w.fake.OpenAIURL()+"/chat/completions", body)
}

// modelAlone streams the long reply from the fake model through Wisp's own
// model client (runtime/llm), for context: how fast Wisp's upstream can go
// before anything is persisted or sent. It returns the text deltas and the
// time from request to the end of the reply.
func (w *wisp) modelAlone(ctx context.Context) (int, time.Duration, error) {
	p, err := llm.New(llm.Config{Kind: llm.ProviderOpenAI, BaseURL: w.fake.OpenAIURL(), APIKey: "k", HTTPClient: w.client})
	if err != nil {
		return 0, 0, err
	}
	deltas := 0
	start := time.Now()
	_, err = p.Stream(ctx, llm.Request{Model: "fake", Messages: []llm.Message{{Role: llm.RoleUser, Text: throughputPrompt}}},
		func(d llm.Delta) {
			if d.Kind == llm.DeltaText {
				deltas++
			}
		})
	return deltas, time.Since(start), err
}
