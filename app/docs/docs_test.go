package docs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/doctext"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/pdfgen"
)

func TestMain(m *testing.M) {
	doctext.RunChildIfAsked()
	goleak.VerifyTestMain(m)
}

// fixture is a store, a folder of blobs and a Service reading them.
type fixture struct {
	st    *store.Store
	dir   string
	svc   *Service
	reads atomic.Int32 // BlobPath calls: one per reading
}

func newFixture(t *testing.T, o Options) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	st, err := store.Open(context.Background(), filepath.Join(f.dir, "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	f.st = st
	o.Store = st
	o.BlobPath = func(sha string) string {
		f.reads.Add(1)
		return filepath.Join(f.dir, sha)
	}
	f.svc = New(o)
	t.Cleanup(func() {
		f.svc.Close()
		st.Close()
	})
	return f
}

// add stores a blob of kind with data and returns an attachment of it.
func (f *fixture) add(t *testing.T, name, kind string, data []byte) store.Attachment {
	t.Helper()
	sha := fmt.Sprintf("%064x", len(name)*1_000_003+len(data))
	if err := os.WriteFile(filepath.Join(f.dir, sha), data, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := f.st.PutBlob(context.Background(), store.Blob{SHA256: sha, Size: int64(len(data)), MIME: "application/pdf", Kind: kind, CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return store.Attachment{ID: "a-" + name, SHA256: sha, Name: name, Blob: b}
}

func TestDocumentReadsAPDFOnce(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, Options{})
	a := f.add(t, "report.pdf", "pdf", pdfgen.Pages(5))
	var wg sync.WaitGroup
	docs := make([]Document, 8)
	errs := make([]error, 8)
	for i := range docs {
		wg.Go(func() { docs[i], errs[i] = f.svc.Document(ctx, a) })
	}
	wg.Wait()
	if n := f.reads.Load(); n != 1 {
		t.Errorf("read %d times, want once", n)
	}
	for i, doc := range docs {
		if errs[i] != nil || len(doc.Pages) != 5 || doc.Truncated || doc.SHA256 != a.SHA256 || doc.Tokens == 0 {
			t.Fatalf("document %d: %+v %v", i, doc, errs[i])
		}
		for j, p := range doc.Pages {
			if p.N != j+1 || p.Text != strings.Join(pdfgen.PageText(j+1), "\n") {
				t.Errorf("page %d = %d %q", j, p.N, p.Text)
			}
		}
	}
	// Then from the store: the file is not read again.
	if err := os.Remove(filepath.Join(f.dir, a.SHA256)); err != nil {
		t.Fatal(err)
	}
	again, err := f.svc.Document(ctx, a)
	if err != nil || len(again.Pages) != 5 || again.Tokens != docs[0].Tokens || f.reads.Load() != 1 {
		t.Fatalf("from the store: %+v %v (%d reads)", again, err, f.reads.Load())
	}
	if b, err := f.st.GetBlob(ctx, a.SHA256); err != nil || b.Pages != 5 {
		t.Fatalf("the blob's pages: %+v %v", b, err)
	}
}

func TestDocumentReadsATextFile(t *testing.T) {
	f := newFixture(t, Options{})
	a := f.add(t, "notes.txt", "text", []byte("\xef\xbb\xbfline one\r\nline two\r\n"))
	doc, err := f.svc.Document(context.Background(), a)
	if err != nil || len(doc.Pages) != 1 || doc.Pages[0] != (Page{1, "line one\nline two\n"}) {
		t.Fatalf("text: %+v %v", doc, err)
	}
	img := f.add(t, "cat.png", "image", []byte("png"))
	if _, err := f.svc.Document(context.Background(), img); !fault.Is(err, fault.Invalid) {
		t.Fatalf("an image: %v", err)
	}
}

// A hostile PDF ends in a clear error naming the file, kept: it is not read again.
func TestDocumentKeepsWhyAPDFCouldNotBeRead(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		data   []byte
		bounds doctext.Bounds
		msg    string
	}{
		{"bomb.pdf", pdfgen.Bomb(256 << 20), doctext.Bounds{Memory: 64 << 20}, "bomb.pdf: the PDF needed more than 64 MiB"},
		{"loop.pdf", pdfgen.PrevLoop(), doctext.Bounds{Time: 2 * time.Second}, "loop.pdf: the PDF took longer than 2s to read"},
		{"garbage.pdf", pdfgen.Garbage(4096), doctext.Bounds{}, "garbage.pdf: the PDF could not be read: "},
	}
	for _, c := range cases {
		f := newFixture(t, Options{Bounds: c.bounds})
		a := f.add(t, c.name, "pdf", c.data)
		for range 2 {
			_, err := f.svc.Document(ctx, a)
			if !fault.Is(err, fault.Invalid) || !strings.HasPrefix(err.Error(), c.msg) {
				t.Errorf("%s: %v, want %q", c.name, err, c.msg)
			}
		}
		if n := f.reads.Load(); n != 1 {
			t.Errorf("%s: read %d times", c.name, n)
		}
	}
}

func TestExcerptsFindThePageOfAKeyword(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, Options{})
	a := f.add(t, "long.pdf", "pdf", pdfgen.Pages(200))
	notes := f.add(t, "notes.txt", "text", []byte("Nothing about keywords here.\n"))
	shas := []string{a.SHA256, notes.SHA256}
	got, err := f.svc.Excerpts(ctx, shas, "What does the document say about KEYWORD-137?", 3)
	if err != nil || len(got) == 0 || len(got) > 3 {
		t.Fatalf("excerpts: %+v %v", got, err)
	}
	if got[0].Page != 137 || got[0].SHA256 != a.SHA256 || !strings.Contains(got[0].Text, "KEYWORD-137 ") {
		t.Fatalf("first excerpt: %+v", got[0])
	}
	// Only stop words or symbols: the documents' first chunks.
	for _, q := range []string{"what is this?", `"" * ) NEAR( OR AND -`, ""} {
		got, err := f.svc.Excerpts(ctx, shas, q, 2)
		if err != nil || len(got) != 2 || got[0].Page != 1 {
			t.Errorf("%q: %+v %v", q, got, err)
		}
	}
	if got, err := f.svc.Excerpts(ctx, shas, "fox", 0); err != nil || len(got) != 0 {
		t.Errorf("limit 0: %+v %v", got, err)
	}
	if got, _ := f.svc.Excerpts(ctx, shas, "lazy fox", 500); len(got) != 200 {
		t.Errorf("every page has the fox: %d", len(got))
	}
}

// Close ends a reading under way (the child is killed) without leaking.
func TestCloseStopsReadings(t *testing.T) {
	f := newFixture(t, Options{Bounds: doctext.Bounds{Time: time.Minute}})
	a := f.add(t, "loop.pdf", "pdf", pdfgen.PrevLoop())
	f.svc.Prepare(a)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := f.svc.Document(ctx, a); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	start := time.Now()
	f.svc.Close()
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("Close took %v", took)
	}
}
