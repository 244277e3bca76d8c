package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A document's text is saved with its pages and chunks, replaced whole, searched
// by its chunks' index, and removed with its blob (chunks and index entries too).
func TestDocText(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(time.Now().UnixMilli())
	a, b := strings.Repeat("aa", 32), strings.Repeat("bb", 32)
	for _, sha := range []string{a, b} {
		if _, err := s.PutBlob(ctx, Blob{SHA256: sha, Size: 1, MIME: "application/pdf", Kind: "pdf", CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.GetDocText(ctx, a); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unread: %v", err)
	}
	if err := s.SaveDocText(ctx, DocText{SHA256: strings.Repeat("cc", 32), CreatedAt: now}, nil, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the text of no blob: %v", err)
	}
	save := func(sha string, words ...string) {
		t.Helper()
		var pages []DocPage
		var chunks []DocChunk
		for i, w := range words {
			pages = append(pages, DocPage{N: i + 1, Text: w})
			chunks = append(chunks, DocChunk{N: i, Page: i + 1, Text: w, Tokens: 1})
		}
		if err := s.SaveDocText(ctx, DocText{SHA256: sha, Pages: len(words), Truncated: true, Tokens: len(words), CreatedAt: now}, pages, chunks); err != nil {
			t.Fatal(err)
		}
	}
	save(a, "alpha beta", "gamma", "old")
	save(a, "alpha beta", "gamma delta", "delta delta delta") // replaces
	save(b, "beta", "Café")
	got, err := s.GetDocText(ctx, a)
	if err != nil || got.Failed || got.Pages != 3 || !got.Truncated || !got.CreatedAt.Equal(now) {
		t.Fatalf("text: %+v %v", got, err)
	}
	if pages, err := s.DocPages(ctx, a); err != nil || len(pages) != 3 || pages[2].Text != "delta delta delta" {
		t.Fatalf("pages: %+v %v", pages, err)
	}
	hits, err := s.SearchDocChunks(ctx, []string{a, b}, `"delta"`, 10)
	if err != nil || len(hits) != 2 || hits[0].Page != 3 || hits[1].Page != 2 {
		t.Fatalf("delta, best first: %+v %v", hits, err)
	}
	if hits, _ := s.SearchDocChunks(ctx, []string{a}, `"old"`, 10); len(hits) != 0 {
		t.Fatalf("a replaced chunk is found: %+v", hits)
	}
	if hits, _ := s.SearchDocChunks(ctx, []string{b}, `"cafe" OR "beta"`, 1); len(hits) != 1 || hits[0].SHA256 != b {
		t.Fatalf("only b's, at most 1: %+v", hits)
	}
	first, err := s.FirstDocChunks(ctx, []string{b, a}, 3)
	if err != nil || len(first) != 3 || first[0].N != 0 || first[2].N != 1 {
		t.Fatalf("first chunks: %+v %v", first, err)
	}
	if err := s.SaveDocText(ctx, DocText{SHA256: b, Failed: true, Error: "the PDF took longer than 30s to read", CreatedAt: now}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetDocText(ctx, b); !got.Failed || got.Error == "" {
		t.Fatalf("failed: %+v", got)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM blobs WHERE sha256 = ?`, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetDocText(ctx, a); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the text of a deleted blob: %v", err)
	}
	var left int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM doc_pages) + (SELECT count(*) FROM doc_chunks) +
		(SELECT count(*) FROM doc_chunks_fts WHERE doc_chunks_fts MATCH '"delta" OR "alpha"')`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d rows left of a deleted blob's text (%v)", left, err)
	}
}
