package archive

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

// Files to put bytes into: each ‹marker› is a place in a string (a title, a text, a
// key) or in a value kept as raw JSON (metadata, display content, run output).
const (
	wispTextFile = `{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[{"id":"c1","title":"‹title›","createdAt":"2026-11-21T09:00:00.000Z",` +
		`"metadata":{"‹metaKey›":"‹meta›"},"messages":[{"id":"m1","role":"user","text":"‹text›","createdAt":"2026-11-21T09:00:00.000Z"}],` +
		`"displayMessages":[{"id":"d1","messageType":"user","contentType":"text","content":{"text":"‹content›"},"createdAt":"2026-11-21T09:00:00.000Z"}],` +
		`"runs":[{"id":"r1","status":"ended","startedAt":"2026-11-21T09:00:00.000Z","output":{"fullText":"‹output›"}}]}]}`
	chatgptTextFile = `[{"id":"g1","title":"‹title›","create_time":1700000000,"current_node":"b","mapping":{` +
		`"a‹node›":{"children":["b"],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["‹text›"]},"metadata":{"‹metaKey›":1}}},` +
		`"b":{"parent":"a‹node›","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["‹content›"]}}}}}]`
)

// place puts snippet at marker in file (every other marker becomes "ok") and returns
// the file and where the snippet starts in it.
func place(file, marker, snippet string) (string, int) {
	for _, m := range []string{"title", "metaKey", "meta", "text", "content", "output", "node"} {
		if m != marker {
			file = strings.ReplaceAll(file, "‹"+m+"›", "ok")
		}
	}
	at := strings.Index(file, "‹"+marker+"›")
	if at < 0 {
		panic("no marker " + marker)
	}
	return strings.ReplaceAll(file, "‹"+marker+"›", snippet), at
}

func TestImportRefusesTextThatIsNotUTF8(t *testing.T) {
	const utf8Rule, escapeRule = "JSON text must be UTF-8 (RFC 8259 §8.1)", "RFC 8259 §8.2"
	cases := []struct {
		name, file, marker, snippet string
		bad                         int // where in snippet the first bad byte is
		rule                        string
	}{
		{"0xFF in a title", wispTextFile, "title", "a\xffb", 1, utf8Rule},
		{"overlong slash in a text", wispTextFile, "text", "x\xc0\xafy", 1, utf8Rule},
		{"encoded surrogate in metadata", wispTextFile, "meta", "\xed\xa0\x80", 0, utf8Rule},
		{"cut at the end of display content", wispTextFile, "content", "caf\xc3", 3, utf8Rule},
		{"Latin-1 in a run's output", wispTextFile, "output", "caf\xe9", 3, utf8Rule},
		{"0xFF in a metadata key", wispTextFile, "metaKey", "k\xff", 1, utf8Rule},
		{"a cut emoji", wispTextFile, "text", "\xf0\x9f\x98", 0, utf8Rule},
		{"a lone continuation byte", wispTextFile, "title", "\x80", 0, utf8Rule},
		{"past U+10FFFF", wispTextFile, "content", "\xf4\x90\x80\x80", 0, utf8Rule},
		{"good then bad", wispTextFile, "title", "café €\xff", 9, utf8Rule},
		{"lone high surrogate in a title", wispTextFile, "title", `\ud800`, 0, escapeRule},
		{"lone low surrogate in metadata", wispTextFile, "meta", `\udc00x`, 0, escapeRule},
		{"high then not low in content", wispTextFile, "content", `ab\ud800\u0041`, 2, escapeRule},
		{"high at the end of the output", wispTextFile, "output", `\ud83d`, 0, escapeRule},
		{"two highs", wispTextFile, "text", `\uD800\uD800`, 0, escapeRule},
		{"low before high", wispTextFile, "text", `\ude00\ud83d`, 0, escapeRule},
		{"surrogate in a metadata key", wispTextFile, "metaKey", `\udfff`, 0, escapeRule},
		{"ChatGPT: 0xFF in a title", chatgptTextFile, "title", "\xff", 0, utf8Rule},
		{"ChatGPT: Latin-1 in a part", chatgptTextFile, "text", "caf\xe9", 3, utf8Rule},
		{"ChatGPT: encoded surrogate in a node id", chatgptTextFile, "node", "\xed\xbf\xbf", 0, utf8Rule},
		{"ChatGPT: overlong in a metadata key", chatgptTextFile, "metaKey", "\xe0\x80\xaf", 0, utf8Rule},
		{"ChatGPT: lone surrogate in a part", chatgptTextFile, "content", `answer \udc00`, 7, escapeRule},
		{"ChatGPT: lone surrogate in a node id", chatgptTextFile, "node", `\ud800`, 0, escapeRule},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file, at := place(tc.file, tc.marker, tc.snippet)
			refused(t, file, at+tc.bad, tc.rule)
		})
	}
	// Where the whole file starts or ends badly; offsets are of the file as uploaded.
	good, _ := place(wispTextFile, "title", "ok")
	for _, tc := range []struct {
		name, file string
		at         int
	}{
		{"0xFF first", "\xff" + good, 0},
		{"after a byte order mark", "\xef\xbb\xbf\xff" + good, 3},
		{"a cut byte order mark", "\xef\xbb" + good, 0},
		{"cut at the end of the file", good + "\xe2\x82", len(good)},
		{"ChatGPT cut at the end", "[{\"mapping\":{}}]\xc3", 16},
		{"Latin-1 only", "caf\xe9", 3},
		{"an escape cut at the end of the file", `["\ud800`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rule := utf8Rule
			if strings.Contains(tc.file, `\u`) {
				rule = escapeRule
			}
			refused(t, tc.file, tc.at, rule)
		})
	}
}

// refused imports file and expects it refused whole for the byte at offset at.
func refused(t *testing.T, file string, at int, rule string) {
	t.Helper()
	s, st, published := newService(t)
	_, err := s.Import(context.Background(), []byte(file), Detect)
	want := fmt.Sprintf("at offset %d", at)
	if !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), rule) {
		t.Fatalf("got %v, want an invalid error with %q and %q", err, want, rule)
	}
	if convs, _ := st.Conversations(context.Background()); len(convs) != 0 || len(published.updated()) != 0 {
		t.Fatalf("a refused file saved %+v", convs)
	}
}

func TestImportKeepsValidText(t *testing.T) {
	cases := []struct {
		name, file, marker, snippet, title string
	}{
		{"multi-byte UTF-8", wispTextFile, "title", "Café € 😀 日本", "Café € 😀 日本"},
		{"an escaped é", wispTextFile, "title", `caf\u00e9`, "café"},
		{"a surrogate pair", wispTextFile, "title", `\ud83d\ude00`, "😀"},
		{"an upper-case pair", wispTextFile, "title", `\uD83D\uDE00!`, "😀!"},
		{"an escaped backslash before u", wispTextFile, "title", `\\ud800`, `\ud800`},
		{"a replacement character as such", wispTextFile, "title", "\xef\xbf\xbd", "\ufffd"},
		{"pairs in raw values", wispTextFile, "meta", `\ud83d\ude00 ☕`, "ok"},
		{"pairs in keys", wispTextFile, "metaKey", `\ud83d\ude00`, "ok"},
		{"ChatGPT pairs", chatgptTextFile, "text", `\ud83d\ude00 and 日本`, "ok"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file, _ := place(tc.file, tc.marker, tc.snippet)
			for _, data := range []string{file, "\xef\xbb\xbf" + file} {
				s, st, _ := newService(t)
				res := mustImport(t, s, []byte(data), Detect)
				c, err := st.Conversation(context.Background(), res.Conversations[0])
				if err != nil || c.Title != tc.title {
					t.Fatalf("title %q, %v; want %q", c.Title, err, tc.title)
				}
			}
		})
	}
}

// BenchmarkCheckText checks a file as big as an import takes (64 MiB) of text, escapes
// and multi-byte characters.
func BenchmarkCheckText(b *testing.B) {
	unit := `{"text":"Gemütlichkeit \"quoted\" \ud83d\ude00 \\ 😀 plain ascii words here","n":12},`
	data := []byte("[" + strings.Repeat(unit, 64<<20/len(unit)) + "{}]")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := checkText(data); err != nil {
			b.Fatal(err)
		}
	}
}
