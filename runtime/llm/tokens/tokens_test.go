package tokens

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestForChoosesTheEncoding(t *testing.T) {
	cases := []struct{ model, want string }{
		{"gpt-4o", "o200k_base"},
		{"gpt-4o-mini-2024-07-18", "o200k_base"},
		{"openai/gpt-4.1-mini", "o200k_base"},
		{"GPT-5", "o200k_base"},
		{"o1", "o200k_base"},
		{"o3-mini", "o200k_base"},
		{"o4-mini-high", "o200k_base"},
		{"ft:gpt-4o-2024-08-06:org::id", "o200k_base"},
		{"gpt-oss:20b", "o200k_base"},
		{"gpt-4", "cl100k_base"},
		{"gpt-4-turbo", "cl100k_base"},
		{"gpt-3.5-turbo", "cl100k_base"},
		{"text-embedding-3-small", "cl100k_base"},
		{"claude-sonnet-4-5", estimate.Name()},
		{"llama3.2:3b", estimate.Name()},
		{"qwen2.5-coder", estimate.Name()},
		{"mistral", estimate.Name()},
		{"gemma3", estimate.Name()},
		{"fake", estimate.Name()},
		{"", estimate.Name()},
		{"o1x", estimate.Name()},
		{"omni", estimate.Name()},
	}
	for _, c := range cases {
		if got := For(c.model).Name(); got != c.want {
			t.Errorf("For(%q) = %s, want %s", c.model, got, c.want)
		}
	}
}

func TestCountKnownTexts(t *testing.T) {
	cases := []struct {
		model, text string
		want        int
	}{
		{"gpt-4", "", 0},
		{"gpt-4", "hello world", 2},
		{"gpt-4", "tiktoken is great!", 6},
		{"gpt-4o", "tiktoken is great!", 6},
		{"gpt-4o", "hello world", 2},
		{"claude-3-5-haiku", "hello world", 3},        // ceil(2 × 1.3)
		{"claude-3-5-haiku", "tiktoken is great!", 8}, // ceil(6 × 1.3)
	}
	for _, c := range cases {
		if got := For(c.model).Count(c.text); got != c.want {
			t.Errorf("For(%q).Count(%q) = %d, want %d", c.model, c.text, got, c.want)
		}
	}
}

// TestCountOverPiecesMatchesWholeText checks that cutting long text into pieces
// changes the count little, and never lowers it much below one pass.
func TestCountOverPiecesMatchesWholeText(t *testing.T) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000) // 90 KB
	whole, err := cl100k.load().Count(text)
	if err != nil {
		t.Fatal(err)
	}
	got := cl100k.Count(text)
	if got < whole || got > whole+whole/100 {
		t.Fatalf("count in pieces = %d, one pass = %d: want within 1%% above", got, whole)
	}
}

func TestHostileInputs(t *testing.T) {
	const size = 32 << 10 // the pieces are 4 KiB: several of them, without a slow test
	invalid := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range invalid {
		invalid[i] = byte(r.IntN(256))
	}
	patterns := map[string]string{
		"one long word": "a", "spaces": " ", "newlines": "\n", "digits": "7", "punctuation": "!?",
		"emoji": "😀", "continuation bytes": "\x80", "apostrophes": "'s", "mixed case": "aB",
		"spaces before words": "   x",
	}
	cases := map[string]string{"random bytes": string(invalid)}
	for name, p := range patterns {
		cases[name] = strings.Repeat(p, size/len(p))
	}
	for name, text := range cases {
		for _, c := range []Counter{For("gpt-4o"), For("claude")} {
			n := c.Count(text)
			if n <= 0 || n > len(text)*2 {
				t.Errorf("%s, %s: count %d for %d bytes", name, c.Name(), n, len(text))
			}
		}
	}
}

func TestMessageAndRequest(t *testing.T) {
	c := For("gpt-4")
	hello := c.Count("hello world")
	user := llm.Message{Role: llm.RoleUser, Text: "hello world"}
	if got, want := Message(c, user), PerMessage+c.Count("user")+hello; got != want {
		t.Errorf("user message = %d, want %d", got, want)
	}
	args := json.RawMessage(`{"path":"/tmp/x"}`)
	assistant := llm.Message{
		Role: llm.RoleAssistant, Text: "ok",
		Thinking:  []llm.Thinking{{Text: "let me think"}},
		ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "read_file", Arguments: args}},
	}
	want := PerMessage + c.Count("assistant") + c.Count("ok") + c.Count("let me think") +
		PerToolCall + c.Count("call_1") + c.Count("read_file") + c.Count(string(args))
	if got := Message(c, assistant); got != want {
		t.Errorf("assistant message = %d, want %d", got, want)
	}
	tool := llm.Message{Role: llm.RoleTool, Text: "contents", ToolCallID: "call_1"}
	if got, want := Message(c, tool), PerMessage+c.Count("tool")+c.Count("contents")+c.Count("call_1"); got != want {
		t.Errorf("tool message = %d, want %d", got, want)
	}

	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	req := llm.Request{
		Model: "gpt-4", System: "Be brief.",
		Messages: []llm.Message{user, assistant, tool},
		Tools:    []llm.Tool{{Name: "read_file", Description: "Reads a file.", Parameters: schema}},
	}
	want = ReplyPrimer + PerMessage + 1 + c.Count("Be brief.") +
		Message(c, user) + Message(c, assistant) + Message(c, tool) +
		PerTool + c.Count("read_file") + c.Count("Reads a file.") + c.Count(string(schema))
	if got := Request(c, req); got != want {
		t.Errorf("request = %d, want %d", got, want)
	}
	if got := Request(c, llm.Request{}); got != ReplyPrimer {
		t.Errorf("empty request = %d, want %d", got, ReplyPrimer)
	}
}

// TestRequestMatchesOpenAICookbook checks the framing against the example of
// OpenAI's "How to count tokens with tiktoken": two messages of known content.
func TestRequestMatchesOpenAICookbook(t *testing.T) {
	c := For("gpt-4o")
	req := llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "hello world"},
		{Role: llm.RoleAssistant, Text: "hi"},
	}}
	// 3 + role + content per message, + 3 for the reply.
	want := 3 + 1 + 2 + 3 + 1 + 1 + 3
	if got := Request(c, req); got != want {
		t.Fatalf("request = %d, want %d", got, want)
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	enc := newEncoding("cl100k_base")
	var wg sync.WaitGroup
	counts := make([]int, 8)
	for i := range counts {
		wg.Go(func() { counts[i] = enc.Count("tiktoken is great!") })
	}
	wg.Wait()
	for i, n := range counts {
		if n != 6 {
			t.Errorf("goroutine %d counted %d, want 6", i, n)
		}
	}
}

func TestCutKeepsRunes(t *testing.T) {
	text := strings.Repeat("é", 5000) // no whitespace: cut at a rune start
	i := cut(text, pieceSize)
	if i > pieceSize || i < pieceSize-utf8.UTFMax || !utf8.ValidString(text[:i]) {
		t.Fatalf("cut at %d", i)
	}
	words := strings.Repeat("word ", 2000)
	if i := cut(words, pieceSize); words[i] != ' ' || words[i-1] == ' ' {
		t.Fatalf("cut at %d: %q", i, words[i-1:i+1])
	}
}

func FuzzCount(f *testing.F) {
	for _, s := range []string{"", "hello world", "\xff\xfe", "😀 x", "  \n\t", strings.Repeat("ab", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range []Counter{For("gpt-4o"), For("gpt-4"), For("llama")} {
			n := c.Count(s)
			if s == "" && n != 0 || s != "" && (n <= 0 || n > 2*len(s)) {
				t.Fatalf("%s: count %d for %d bytes", c.Name(), n, len(s))
			}
		}
	})
}

func BenchmarkCount(b *testing.B) {
	var sb strings.Builder
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"the", "context", "window", "of", "a", "model", "is", "measured", "in", "tokens,", "func", "main()", "{", "}", "\n", "résumé", "数据"}
	for sb.Len() < 1<<20 {
		sb.WriteString(words[r.IntN(len(words))])
		sb.WriteByte(' ')
	}
	text := sb.String()
	for _, model := range []string{"gpt-4o", "gpt-4"} {
		c := For(model)
		c.Count("warm up")
		b.Run(c.Name(), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c.Count(text)
			}
		})
	}
}
