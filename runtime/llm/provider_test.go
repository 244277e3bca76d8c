package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestNew(t *testing.T) {
	tests := []struct {
		kind     string
		wantName string
		wantErr  bool
	}{
		{"", "openai", false},
		{"openai", "openai", false},
		{" Ollama ", "ollama", false},
		{"anthropic", "anthropic", false},
		{"gemini", "", true},
	}
	for _, tt := range tests {
		p, err := llm.New(llm.Config{Kind: tt.kind})
		if tt.wantErr {
			if err == nil {
				t.Errorf("New(%q) = %v, want an error", tt.kind, p)
			}
			continue
		}
		if err != nil || p.Name() != tt.wantName {
			t.Errorf("New(%q) = %v, %v; want %s", tt.kind, p, err, tt.wantName)
		}
	}
}

func TestDefaultBaseURL(t *testing.T) {
	tests := map[string]string{
		"openai":    "https://api.openai.com/v1",
		"ollama":    "http://127.0.0.1:11434/v1",
		"anthropic": "https://api.anthropic.com",
		"other":     "",
	}
	for kind, want := range tests {
		if got := llm.DefaultBaseURL(kind); got != want {
			t.Errorf("DefaultBaseURL(%q) = %q, want %q", kind, got, want)
		}
	}
}

func TestDetectOllama(t *testing.T) {
	srv := newServer(t)
	srv.SetModels("llama3.2:latest", "qwen3:8b")
	for _, root := range []string{srv.URL, srv.URL + "/", srv.OpenAIURL()} {
		names, err := llm.DetectOllama(context.Background(), root, testClient(t))
		if err != nil {
			t.Fatalf("DetectOllama(%s): %v", root, err)
		}
		if !equalStrings(names, []string{"llama3.2:latest", "qwen3:8b"}) {
			t.Errorf("DetectOllama(%s) = %q", root, names)
		}
	}
}

func TestDetectOllamaFails(t *testing.T) {
	notOllama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tags" {
			w.Write([]byte(`{"hello":"world"}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer notOllama.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()

	tests := []struct {
		name string
		root string
	}{
		{"closed port", "http://" + closedAddr(t)},
		{"not ollama", notOllama.URL},
		{"no api", missing.URL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names, err := llm.DetectOllama(context.Background(), tt.root, testClient(t))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.KindUnavailable || e.Provider != "ollama" {
				t.Errorf("DetectOllama = %q, %v; want a KindUnavailable *llm.Error", names, err)
			}
		})
	}
}

func TestDetectOllamaCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := llm.DetectOllama(ctx, "http://"+closedAddr(t), testClient(t)); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
