package llm

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestImageLimitsFor(t *testing.T) {
	anthropic := ImageLimits{MaxEdge: 1568, MaxPixels: 1_150_000, MaxBytes: 5 << 20, Formats: []string{MIMEJPEG, MIMEPNG, MIMEGIF, MIMEWebP}}
	openAI := ImageLimits{MaxEdge: 2048, MaxShortEdge: 768, MaxBytes: 20_000_000, Formats: []string{MIMEPNG, MIMEJPEG, MIMEWebP, MIMEGIF}}
	ollama := openAI
	ollama.Formats = []string{MIMEPNG, MIMEJPEG}
	for kind, want := range map[string]ImageLimits{
		"anthropic": anthropic, " Anthropic ": anthropic,
		"openai": openAI, "ollama": ollama, "": openAI, "unknown": openAI,
	} {
		got := ImageLimitsFor(kind)
		if got.MaxEdge != want.MaxEdge || got.MaxShortEdge != want.MaxShortEdge || got.MaxPixels != want.MaxPixels ||
			got.MaxBytes != want.MaxBytes || !slices.Equal(got.Formats, want.Formats) {
			t.Errorf("ImageLimitsFor(%q) = %+v, want %+v", kind, got, want)
		}
	}
	lim := ImageLimitsFor("openai")
	if !lim.Accepts("image/png") || lim.Accepts("image/svg+xml") || lim.Accepts("") {
		t.Error("Accepts")
	}
}

func TestImageLimitsFit(t *testing.T) {
	anthropic, openAI := ImageLimitsFor("anthropic"), ImageLimitsFor("openai")
	cases := []struct {
		lim        ImageLimits
		w, h       int
		wantW, wan int
	}{
		{anthropic, 64, 48, 64, 48},
		{anthropic, 1000, 1000, 1000, 1000},
		{anthropic, 3136, 784, 1568, 392},   // long edge
		{anthropic, 784, 3136, 392, 1568},   // tall
		{anthropic, 1568, 1568, 1072, 1072}, // area: 1.15 MP
		{anthropic, 4000, 3000, 1238, 928},  // both: the area wins
		{anthropic, 100000, 1, 1568, 1},     // never below 1 px
		{openAI, 1024, 1024, 768, 768},      // short side
		{openAI, 2048, 4096, 768, 1536},     // 2048 square, then short side
		{openAI, 4096, 1000, 2048, 500},     // 2048 only
		{openAI, 500, 300, 500, 300},        // never enlarged
		{openAI, 0, 10, 0, 0},
		{ImageLimits{}, 9000, 9000, 9000, 9000},
	}
	for _, c := range cases {
		w, h := c.lim.Fit(c.w, c.h)
		if w != c.wantW || h != c.wan {
			t.Errorf("%+v.Fit(%d, %d) = %d×%d, want %d×%d", c.lim.MaxEdge, c.w, c.h, w, h, c.wantW, c.wan)
		}
		if c.lim.MaxPixels > 0 && w*h > c.lim.MaxPixels {
			t.Errorf("Fit(%d, %d) = %d×%d: over %d pixels", c.w, c.h, w, h, c.lim.MaxPixels)
		}
	}
}

// readAllIn reads r with reads of at most n bytes.
func readAllIn(r io.Reader, n int) ([]byte, error) {
	var out []byte
	buf := make([]byte, n)
	for {
		m, err := r.Read(buf)
		out = append(out, buf[:m]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func TestSplicedBody(t *testing.T) {
	for _, dataURL := range []bool{false, true} {
		s := &imageSlots{dataURL: dataURL}
		a, _ := s.add(Image{MIME: MIMEPNG, Data: []byte("first image")})
		b, _ := s.add(Image{MIME: MIMEJPEG, Data: []byte{0xff, 0xd8, 0xff, 0, 1}})
		encoded := []byte(`{"x":"` + a + `","text":"` + a[:5] + `","y":["` + b + `"]}`)
		body, err := s.splice(encoded)
		if err != nil {
			t.Fatal(err)
		}
		prefix := func(mime string) string {
			if dataURL {
				return "data:" + mime + ";base64,"
			}
			return ""
		}
		want := `{"x":"` + prefix(MIMEPNG) + base64.StdEncoding.EncodeToString([]byte("first image")) +
			`","text":"` + a[:5] + `","y":["` + prefix(MIMEJPEG) + base64.StdEncoding.EncodeToString([]byte{0xff, 0xd8, 0xff, 0, 1}) + `"]}`
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 64, 4096} {
			got, err := readAllIn(body.reader(), n)
			if err != nil || string(got) != want {
				t.Errorf("dataURL %v, reads of %d: %s, %v; want %s", dataURL, n, got, err, want)
			}
		}
		if body.Len() != int64(len(want)) {
			t.Errorf("Len %d, want %d", body.Len(), len(want))
		}
		if _, err := s.splice([]byte(`{"x":"` + b + `"}`)); err == nil {
			t.Error("a body without the first marker was spliced")
		}
	}
}

func TestImageMarkersAreUnique(t *testing.T) {
	s1, s2 := &imageSlots{}, &imageSlots{}
	a, _ := s1.add(Image{MIME: MIMEPNG, Data: []byte{1}})
	b, _ := s2.add(Image{MIME: MIMEPNG, Data: []byte{1}})
	if a == b || !strings.HasPrefix(a, "wisp-image-") {
		t.Errorf("markers %q and %q", a, b)
	}
}

// FuzzSplicedBody checks the streamed base64 against the standard encoding, for
// any image bytes and any read size.
func FuzzSplicedBody(f *testing.F) {
	f.Add([]byte("x"), []byte(`{"a":"`), uint8(3))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6}, []byte(`[`), uint8(1))
	f.Fuzz(func(t *testing.T, data, head []byte, readSize uint8) {
		if len(data) == 0 || bytes.Contains(head, []byte("wisp-image-")) {
			return
		}
		s := &imageSlots{}
		m, err := s.add(Image{MIME: MIMEGIF, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		body, err := s.splice(append(append(slices.Clone(head), `"`+m+`"`...), "}"...))
		if err != nil {
			t.Fatal(err)
		}
		want := string(head) + `"` + base64.StdEncoding.EncodeToString(data) + `"}`
		got, err := readAllIn(body.reader(), int(readSize)+1)
		if err != nil || string(got) != want || body.Len() != int64(len(want)) {
			t.Fatalf("got %q (len %d), want %q", got, body.Len(), want)
		}
	})
}

func TestSeesImages(t *testing.T) {
	tests := []struct {
		name   string
		kind   string
		base   string
		routes map[string]string
		model  string
		want   Vision
	}{
		{"ollama vision", ProviderOllama, "/v1", map[string]string{
			"POST /api/show": `{"parameters":"","capabilities":["completion","vision"]}`,
		}, "gemma3", VisionYes},
		{"ollama text only", ProviderOllama, "", map[string]string{
			"POST /api/show": `{"capabilities":["completion","tools"]}`,
		}, "qwen3", VisionNo},
		{"ollama too old to say", ProviderOllama, "/v1", map[string]string{
			"POST /api/show": `{"parameters":""}`,
		}, "llava", VisionUnknown},
		{"ollama hostile", ProviderOllama, "/v1", map[string]string{
			"POST /api/show": `{"capabilities":"vision"}`,
		}, "x", VisionUnknown},
		{"ollama unknown model", ProviderOllama, "/v1", map[string]string{"POST /api/show": "404"}, "x", VisionUnknown},
		{"anthropic", ProviderAnthropic, "", nil, "claude-sonnet-4-5", VisionYes},
		{"anthropic 2", ProviderAnthropic, "", nil, "claude-2.1", VisionNo},
		{"lm studio vlm", ProviderOpenAI, "/v1", map[string]string{
			"GET /api/v0/models": `{"data":[{"id":"qwen2.5-7b","type":"llm"},{"id":"gemma-3-12b","type":"vlm"}]}`,
		}, "gemma-3-12b", VisionYes},
		{"lm studio llm", ProviderOpenAI, "/v1", map[string]string{
			"GET /api/v0/models": `{"data":[{"id":"qwen2.5-7b","type":"llm"}]}`,
		}, "qwen2.5-7b", VisionNo},
		{"llama.cpp vision", ProviderOpenAI, "/v1", map[string]string{
			"GET /props": `{"model_path":"m.gguf","modalities":{"vision":true,"audio":false}}`,
		}, "m.gguf", VisionYes},
		{"llama.cpp text", ProviderOpenAI, "/v1", map[string]string{
			"GET /props": `{"modalities":{"vision":false}}`,
		}, "m.gguf", VisionNo},
		{"llama.cpp too old", ProviderOpenAI, "/v1", map[string]string{"GET /props": `{"n_ctx":4096}`}, "m", VisionUnknown},
		{"lm studio without the model, then llama.cpp", ProviderOpenAI, "/v1", map[string]string{
			"GET /api/v0/models": `{"data":[]}`, "GET /props": `{"modalities":{"vision":true}}`,
		}, "m", VisionYes},
		{"nothing says", ProviderOpenAI, "/v1", nil, "m", VisionUnknown},
		{"not beside /v1", ProviderOpenAI, "/api", map[string]string{"GET /props": `{"modalities":{"vision":true}}`}, "m", VisionUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := provider(t, tt.routes)
			got, err := SeesImages(context.Background(), Config{Kind: tt.kind, BaseURL: url + tt.base}, tt.model)
			if err != nil || got != tt.want {
				t.Fatalf("vision %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestOpenAIVision(t *testing.T) {
	for model, want := range map[string]Vision{
		"gpt-4o": VisionYes, "gpt-4o-mini": VisionYes, "gpt-4.1-nano": VisionYes, "gpt-5": VisionYes,
		"o3": VisionYes, "o3-mini": VisionNo, "o1-mini": VisionNo, "o4-mini": VisionYes,
		"gpt-3.5-turbo": VisionNo, "davinci-002": VisionUnknown, "openai/gpt-4o": VisionYes,
	} {
		if got := openAIVision(model); got != want {
			t.Errorf("openAIVision(%q) = %v, want %v", model, got, want)
		}
	}
	got, err := SeesImages(context.Background(), Config{Kind: ProviderOpenAI}, "gpt-4o")
	if got != VisionYes || err != nil {
		t.Errorf("SeesImages of api.openai.com asked the network or failed: %v, %v", got, err)
	}
}

func TestSeesImagesUnreachable(t *testing.T) {
	for _, kind := range []string{ProviderOllama, ProviderOpenAI} {
		got, err := SeesImages(context.Background(), Config{Kind: kind, BaseURL: "http://127.0.0.1:1/v1"}, "m")
		if e, ok := err.(*Error); !ok || e.Kind != KindUnavailable || got != VisionUnknown {
			t.Errorf("%s unreachable: %v, %v", kind, got, err)
		}
	}
}

func TestDiscoverModel(t *testing.T) {
	tests := []struct {
		name   string
		kind   string
		routes map[string]string
		want   ModelFacts
		asked  []string
	}{
		{"ollama not loaded: one /api/show for both", ProviderOllama, map[string]string{
			"GET /api/ps":    `{"models":[]}`,
			"POST /api/show": `{"parameters":"num_ctx 8192","capabilities":["completion","vision"]}`,
		}, ModelFacts{Window{8192, WindowModelfile}, VisionYes}, []string{"GET /api/ps", "POST /api/show"}},
		{"ollama loaded", ProviderOllama, map[string]string{
			"GET /api/ps":    `{"models":[{"name":"m:latest","context_length":16384}]}`,
			"POST /api/show": `{"capabilities":["completion"]}`,
		}, ModelFacts{Window{16384, WindowRunning}, VisionNo}, []string{"GET /api/ps", "POST /api/show"}},
		{"ollama loaded, show fails", ProviderOllama, map[string]string{
			"GET /api/ps": `{"models":[{"name":"m:latest","context_length":16384}]}`,
		}, ModelFacts{Window{16384, WindowRunning}, VisionUnknown}, []string{"GET /api/ps", "POST /api/show"}},
		{"lm studio", ProviderOpenAI, map[string]string{
			"GET /api/v0/models": `{"data":[{"id":"m","type":"vlm","loaded_context_length":4096}]}`,
		}, ModelFacts{Window{4096, WindowListed}, VisionYes}, []string{"GET /v1/models", "GET /api/v0/models", "GET /api/v0/models"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var asked []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				asked = append(asked, r.Method+" "+r.URL.Path)
				mu.Unlock()
				body, ok := tt.routes[r.Method+" "+r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				_, _ = io.WriteString(w, body)
			}))
			defer srv.Close()
			got, err := DiscoverModel(context.Background(), Config{Kind: tt.kind, BaseURL: srv.URL + "/v1"}, "m")
			if err != nil || got != tt.want {
				t.Errorf("facts %+v, %v; want %+v", got, err, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(asked, tt.asked) {
				t.Errorf("asked %v, want %v", asked, tt.asked)
			}
		})
	}
}
