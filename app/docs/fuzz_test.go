package docs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
)

// FuzzMatchExpr: whatever the question, its expression is one FTS5 accepts.
func FuzzMatchExpr(f *testing.F) {
	for _, q := range []string{"KEYWORD-137", `"a" OR (b`, "NEAR(x y, 2) * ^ - : {col}", "the", "\x00\xff", "café 東京"} {
		f.Add(q)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(f.TempDir(), "wisp.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	sha := strings.Repeat("ab", 32)
	if _, err := st.PutBlob(ctx, store.Blob{SHA256: sha, MIME: "text/plain", Kind: "text", CreatedAt: time.Now()}); err != nil {
		f.Fatal(err)
	}
	if err := st.SaveDocText(ctx, store.DocText{SHA256: sha, Pages: 1, CreatedAt: time.Now()},
		[]store.DocPage{{N: 1, Text: "some text"}}, []store.DocChunk{{N: 0, Page: 1, Text: "some text", Tokens: 2}}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		expr := matchExpr(q)
		if expr == "" {
			return
		}
		if _, err := st.SearchDocChunks(ctx, []string{sha}, expr, 5); err != nil {
			t.Fatalf("matchExpr(%q) = %q: %v", q, expr, err)
		}
	})
}

// FuzzChunkPage: chunks hold at most chunkMax tokens (one rune may be more), are
// trimmed, non-empty, valid where the page was, and on the page asked.
func FuzzChunkPage(f *testing.F) {
	f.Add("One. Two three! Four?\n\nFive\nsix")
	f.Add(strings.Repeat("x", 5000))
	f.Add(strings.Repeat("a. ", 2000))
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range chunkPage(3, text, bytesOver4) {
			if c.page != 3 || c.text == "" || c.text != strings.TrimSpace(c.text) ||
				c.tokens > chunkMax && utf8.RuneCountInString(c.text) > 1 ||
				utf8.ValidString(text) && !utf8.ValidString(c.text) || !strings.Contains(text, c.text) {
				t.Fatalf("chunk %+v of %q", c, text)
			}
		}
	})
}
