package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// provider starts a server answering the given paths with the given bodies (a
// body "404" answers 404), and returns its URL.
func provider(t *testing.T, routes map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := routes[r.Method+" "+r.URL.Path]
		if !ok || body == "404" {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		if r.Method == http.MethodPost {
			var q struct{ Model string }
			if json.NewDecoder(r.Body).Decode(&q) != nil || q.Model == "" {
				http.Error(w, "bad body", http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestDiscoverWindow(t *testing.T) {
	tests := []struct {
		name   string
		kind   string
		base   string // appended to the server's URL
		routes map[string]string
		model  string
		want   Window
	}{
		{"ollama running", ProviderOllama, "/v1", map[string]string{
			"GET /api/ps": `{"models":[{"name":"other:latest","context_length":2048},{"name":"qwen3:8b","model":"qwen3:8b","context_length":16384}]}`,
		}, "qwen3:8b", Window{16384, WindowRunning}},
		{"ollama running untagged", ProviderOllama, "", map[string]string{
			"GET /api/ps": `{"models":[{"name":"llama3:latest","context_length":8192}]}`,
		}, "llama3", Window{8192, WindowRunning}},
		{"ollama modelfile", ProviderOllama, "/v1", map[string]string{
			"GET /api/ps":    `{"models":[]}`,
			"POST /api/show": `{"parameters":"stop                           \"<|eot_id|>\"\nnum_ctx                        32768","model_info":{"llama.context_length":131072}}`,
		}, "llama3.1", Window{32768, WindowModelfile}},
		{"ollama default, not the trained length", ProviderOllama, "/v1", map[string]string{
			"GET /api/ps":    `{"models":[]}`,
			"POST /api/show": `{"parameters":"","model_info":{"general.architecture":"qwen2","qwen2.context_length":131072}}`,
		}, "qwen2.5", Window{OllamaDefaultContext, WindowOllamaDefault}},
		{"ollama default above the trained length", ProviderOllama, "/v1", map[string]string{
			"POST /api/show": `{"model_info":{"phi.context_length":2048}}`,
		}, "phi", Window{2048, WindowOllamaDefault}},
		{"ollama old ps, unknown model", ProviderOllama, "/v1", map[string]string{
			"GET /api/ps": `{"models":[{"name":"x:latest"}]}`, "POST /api/show": "404",
		}, "missing", Window{}},
		{"openrouter", ProviderOpenAI, "/api/v1", map[string]string{
			"GET /api/v1/models": `{"data":[{"id":"a/b","context_length":1000000},{"id":"meta-llama/llama-3.1-8b-instruct","context_length":131072,"top_provider":{"context_length":16384}}]}`,
		}, "meta-llama/llama-3.1-8b-instruct", Window{131072, WindowListed}},
		{"openrouter top provider only", ProviderOpenAI, "/api/v1", map[string]string{
			"GET /api/v1/models": `{"data":[{"id":"m","top_provider":{"context_length":32000}}]}`,
		}, "m", Window{32000, WindowListed}},
		{"vllm", ProviderOpenAI, "/v1", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B","object":"model","max_model_len":32768}]}`,
		}, "Qwen/Qwen2.5-7B", Window{32768, WindowListed}},
		{"groq", ProviderOpenAI, "/openai/v1", map[string]string{
			"GET /openai/v1/models": `{"data":[{"id":"llama-3.3-70b-versatile","context_window":131072}]}`,
		}, "llama-3.3-70b-versatile", Window{131072, WindowListed}},
		{"lm studio", ProviderOpenAI, "/v1", map[string]string{
			"GET /v1/models":     `{"data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}]}`,
			"GET /api/v0/models": `{"data":[{"id":"qwen2.5-7b-instruct","state":"loaded","max_context_length":32768,"loaded_context_length":8192}]}`,
		}, "qwen2.5-7b-instruct", Window{8192, WindowListed}},
		{"llama.cpp says nothing", ProviderOpenAI, "/v1", map[string]string{
			"GET /v1/models": `{"object":"list","data":[{"id":"model.gguf","object":"model","meta":{"n_ctx_train":131072}}]}`,
		}, "model.gguf", Window{}},
		{"model not listed", ProviderOpenAI, "/v1", map[string]string{
			"GET /v1/models": `{"data":[{"id":"a","context_length":4096}]}`,
		}, "b", Window{}},
		{"anthropic", ProviderAnthropic, "", nil, "claude-sonnet-4-5-20250929", Window{200_000, WindowTable}},
		{"anthropic 2.0", ProviderAnthropic, "", nil, "claude-2.0", Window{100_000, WindowTable}},
		{"anthropic unknown", ProviderAnthropic, "", nil, "not-claude", Window{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := provider(t, tt.routes)
			got, err := DiscoverWindow(context.Background(), Config{Kind: tt.kind, BaseURL: url + tt.base}, tt.model)
			if err != nil || got != tt.want {
				t.Fatalf("window %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestOpenAITable(t *testing.T) {
	for model, want := range map[string]int{"gpt-4o-mini": 128_000, "gpt-4.1": 1_047_576, "gpt-4": 8_192, "gpt-4-turbo": 128_000, "o3-mini": 200_000, "gpt-5-mini": 400_000, "whisper-1": 0} {
		n, err := ContextWindow(context.Background(), Config{Kind: ProviderOpenAI}, model)
		if err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", model, n, err, want)
		}
	}
}

// TestDiscoverWindowHostile checks that absurd values, wrong types, huge and
// broken bodies are ignored without a panic.
func TestDiscoverWindowHostile(t *testing.T) {
	huge := `{"data":[` + strings.Repeat(`{"id":"x"},`, 200_000) + `{"id":"m","context_length":4096}]}`
	lists := map[string]string{
		"negative":      `{"data":[{"id":"m","context_length":-4096}]}`,
		"tiny":          `{"data":[{"id":"m","context_length":10}]}`,
		"absurd":        `{"data":[{"id":"m","context_length":1e20}]}`,
		"too big":       `{"data":[{"id":"m","context_length":99999999999999999999999}]}`,
		"fraction":      `{"data":[{"id":"m","context_length":4096.5}]}`,
		"string":        `{"data":[{"id":"m","context_length":"4096"}]}`,
		"object":        `{"data":[{"id":"m","context_length":{"n":4096}}]}`,
		"data not list": `{"data":{"id":"m"}}`,
		"not json":      `<html>`,
		"truncated":     `{"data":[{"id":"m","context_len`,
		"over 1 MiB":    huge,
	}
	for name, body := range lists {
		t.Run(name, func(t *testing.T) {
			url := provider(t, map[string]string{"GET /v1/models": body})
			got, _ := DiscoverWindow(context.Background(), Config{Kind: ProviderOpenAI, BaseURL: url + "/v1"}, "m")
			if got != (Window{}) {
				t.Fatalf("window %+v", got)
			}
		})
	}
	shows := map[string]string{
		"num_ctx absurd":  `{"parameters":"num_ctx 99999999999"}`,
		"num_ctx words":   `{"parameters":"num_ctx lots\nnum_ctx"}`,
		"model_info junk": `{"model_info":{"llama.context_length":"x","a.context_length":-1}}`,
	}
	for name, body := range shows {
		t.Run(name, func(t *testing.T) {
			url := provider(t, map[string]string{"GET /api/ps": `{"models":[{"name":"m:latest","context_length":1e30}]}`, "POST /api/show": body})
			got, err := DiscoverWindow(context.Background(), Config{Kind: ProviderOllama, BaseURL: url}, "m")
			if err != nil || got != (Window{OllamaDefaultContext, WindowOllamaDefault}) {
				t.Fatalf("window %+v, %v", got, err)
			}
		})
	}
}

func TestDiscoverWindowFailures(t *testing.T) {
	// unreachable
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	for _, kind := range []string{ProviderOllama, ProviderOpenAI} {
		got, err := DiscoverWindow(context.Background(), Config{Kind: kind, BaseURL: url + "/v1"}, "m")
		var e *Error
		if got != (Window{}) || err == nil || !asError(err, &e) || e.Kind != KindUnavailable {
			t.Errorf("%s unreachable: %+v, %v", kind, got, err)
		}
	}
	// an HTTP error
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
	}))
	defer auth.Close()
	if got, err := DiscoverWindow(context.Background(), Config{BaseURL: auth.URL + "/v1"}, "m"); got != (Window{}) || err == nil || !strings.Contains(err.Error(), "bad key") {
		t.Errorf("401: %+v, %v", got, err)
	}
	// a server that never answers is given up after the timeout
	defer func(d time.Duration) { windowTimeout = d }(windowTimeout)
	windowTimeout = 50 * time.Millisecond
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	got, err := DiscoverWindow(context.Background(), Config{Kind: ProviderOllama, BaseURL: hang.URL}, "m")
	if got != (Window{}) || err == nil {
		t.Errorf("hanging server: %+v, %v", got, err)
	}
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	*target = e
	return ok
}

func FuzzWindowNumber(f *testing.F) {
	for _, s := range []string{"4096", "-1", "1e9", "4096.0", `"4096"`, "null", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := windowNumber(json.RawMessage(s)); n != 0 && (n < MinWindow || n > MaxWindow) {
			t.Fatalf("windowNumber(%q) = %d", s, n)
		}
		if n := numCtx(fmt.Sprintf("num_ctx %s", s)); n != 0 && (n < MinWindow || n > MaxWindow) {
			t.Fatalf("numCtx(%q) = %d", s, n)
		}
	})
}
