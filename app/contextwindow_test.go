package app

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/runtime/llm"
)

// The provider's window is asked in the background, once per provider and model, and
// the settings' figure caps it.
func TestContextWindowSources(t *testing.T) {
	asked := make(chan string, 4)
	w := windows{ask: func(_ context.Context, _ llm.Config, model string) (llm.ModelFacts, error) {
		asked <- model
		return llm.ModelFacts{Window: llm.Window{Tokens: 32768}, Vision: llm.VisionNo}, nil
	}}
	cfg := llm.Config{Kind: "ollama", BaseURL: "http://127.0.0.1:11434"}
	if n := w.get(cfg, "llama3.2"); n != 0 {
		t.Fatalf("the first get answered %d before the provider did", n)
	}
	if m := <-asked; m != "llama3.2" {
		t.Fatalf("asked for %q", m)
	}
	w.stop()
	if n := w.get(cfg, "llama3.2"); n != 32768 {
		t.Fatalf("cached %d", n)
	}
	if v := w.facts(cfg, "llama3.2").Vision; v != llm.VisionNo {
		t.Fatalf("vision %s", v)
	}
	if len(asked) != 0 {
		t.Fatal("asked twice")
	}
	for _, c := range []struct {
		prov, set, want int
		src             string
	}{
		{32768, 0, 32768, chat.WindowProvider},
		{32768, 4096, 4096, chat.WindowConfig}, // llama.cpp run with -c 4096
		{2048, 4096, 2048, chat.WindowProvider},
		{0, 4096, 4096, chat.WindowConfig},
		{0, 0, chat.DefaultWindow, chat.WindowDefault},
	} {
		if n, src := pickWindow(c.prov, c.set); n != c.want || src != c.src {
			t.Errorf("provider %d, settings %d: %d %s, want %d %s", c.prov, c.set, n, src, c.want, c.src)
		}
	}
}
