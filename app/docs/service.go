package docs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/doctext"
	"github.com/wispapp/wisp/internal/fault"
)

// Options configure a Service.
type Options struct {
	Store    *store.Store
	BlobPath func(sha string) string // where a blob's bytes are (attach.Service.BlobPath)
	Log      *slog.Logger
	Count    func(string) int // tokens of a text; nil: bytes/4
	// Bounds of a PDF's reading (zero: doctext's defaults); Readers is how many
	// PDFs are read at once (default 1: ten uploads do not start ten readers).
	Bounds  doctext.Bounds
	Readers int
	Now     func() time.Time
}

// Service reads documents' text once per blob, keeps it in the store, and
// searches their chunks.
type Service struct {
	o       Options
	readers chan struct{} // a slot per PDF read at once
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup

	mu       sync.Mutex
	inflight map[string]*reading
}

// reading is one extraction of a blob's text; done closes when doc and err are set.
type reading struct {
	done chan struct{}
	doc  Document
	err  error
}

// New returns a Service. Close stops the readings it started.
func New(o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Count == nil {
		o.Count = func(s string) int { return (len(s) + 3) / 4 }
	}
	if o.Readers <= 0 {
		o.Readers = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Service{o: o, readers: make(chan struct{}, o.Readers), ctx: ctx, stop: stop, inflight: map[string]*reading{}}
}

// Close stops the readings under way and waits for them to end.
func (s *Service) Close() {
	s.stop()
	s.wg.Wait()
}

// IsDocument says whether a blob of this kind has text Document reads.
func IsDocument(kind string) bool { return kind == "pdf" || kind == "text" }

// Document is the text by page of a pdf or text attachment, read on first use
// (then from the store), within bounds; safe to call concurrently (one reading
// per blob at a time). A document that could not be read is a fault.Invalid
// naming the file and why (the reason is kept: it is not read again).
func (s *Service) Document(ctx context.Context, a store.Attachment) (Document, error) {
	if !IsDocument(a.Blob.Kind) {
		return Document{}, fault.Invalid.Errorf("%s is not a document Wisp reads (%s)", a.Name, a.Blob.MIME)
	}
	doc, err := s.document(ctx, a.SHA256, a.Blob.Kind)
	var e *doctext.Error
	if errors.As(err, &e) {
		return Document{}, &fault.Error{Kind: fault.Invalid, Msg: a.Name + ": " + e.Msg, Err: err}
	}
	return doc, err
}

// Prepare starts reading a document's text in the background after an upload
// (anything else is ignored); it does not wait.
func (s *Service) Prepare(a store.Attachment) {
	if IsDocument(a.Blob.Kind) {
		s.start(a.SHA256, a.Blob.Kind)
	}
}

// document reads the stored text, or waits for a reading of it.
func (s *Service) document(ctx context.Context, sha, kind string) (Document, error) {
	if doc, err := s.stored(ctx, sha); !errors.Is(err, store.ErrNotFound) {
		return doc, err
	}
	r := s.start(sha, kind)
	select {
	case <-r.done:
		return r.doc, r.err
	case <-ctx.Done():
		return Document{}, ctx.Err()
	}
}

// stored is the document as the store keeps it; ErrNotFound if it was not read.
func (s *Service) stored(ctx context.Context, sha string) (Document, error) {
	t, err := s.o.Store.GetDocText(ctx, sha)
	if err != nil {
		return Document{}, err
	}
	if t.Failed {
		return Document{}, &doctext.Error{Kind: doctext.ErrUnreadable, Msg: t.Error}
	}
	pages, err := s.o.Store.DocPages(ctx, sha)
	if err != nil {
		return Document{}, err
	}
	doc := Document{SHA256: sha, Truncated: t.Truncated, Tokens: t.Tokens, Pages: make([]Page, len(pages))}
	for i, p := range pages {
		doc.Pages[i] = Page{N: p.N, Text: p.Text}
	}
	return doc, nil
}

// start joins the reading of sha under way, or starts one.
func (s *Service) start(sha, kind string) *reading {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.inflight[sha]; ok {
		return r
	}
	r := &reading{done: make(chan struct{})}
	s.inflight[sha] = r
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		r.doc, r.err = s.read(s.ctx, sha, kind)
		if r.err != nil && !errors.As(r.err, new(*doctext.Error)) {
			s.o.Log.Warn("read document", "sha256", sha, "err", r.err)
		}
		s.mu.Lock()
		delete(s.inflight, sha)
		s.mu.Unlock()
		close(r.done)
	}()
	return r
}

// read extracts a blob's text and saves it with its chunks. A file the reader
// refuses (*doctext.Error) is saved as failed; other errors are not kept.
func (s *Service) read(ctx context.Context, sha, kind string) (Document, error) {
	if doc, err := s.stored(ctx, sha); !errors.Is(err, store.ErrNotFound) {
		return doc, err // read while this reading was being set up
	}
	pages, truncated, err := s.extract(ctx, sha, kind)
	var bad *doctext.Error
	if errors.As(err, &bad) {
		if err := s.o.Store.SaveDocText(ctx, store.DocText{SHA256: sha, Failed: true, Error: bad.Msg, CreatedAt: s.o.Now()}, nil, nil); err != nil {
			return Document{}, err
		}
		return Document{}, bad
	}
	if err != nil {
		return Document{}, err
	}
	doc := Document{SHA256: sha, Pages: pages, Truncated: truncated}
	var chunks []store.DocChunk
	stored := make([]store.DocPage, len(pages))
	for i, p := range pages {
		stored[i] = store.DocPage{N: p.N, Text: p.Text}
		doc.Tokens += s.o.Count(p.Text)
		for _, c := range chunkPage(p.N, p.Text, s.o.Count) {
			chunks = append(chunks, store.DocChunk{SHA256: sha, N: len(chunks), Page: c.page, Text: c.text, Tokens: c.tokens})
		}
	}
	t := store.DocText{SHA256: sha, Pages: len(pages), Truncated: truncated, Tokens: doc.Tokens, CreatedAt: s.o.Now()}
	if err := s.o.Store.SaveDocText(ctx, t, stored, chunks); err != nil {
		return Document{}, err
	}
	if kind == "pdf" {
		if err := s.o.Store.SetBlobPages(ctx, sha, len(pages)); err != nil {
			return Document{}, err
		}
	}
	return doc, nil
}

// extract reads the pages of a blob: a PDF's in a bounded child process (one
// per free reader slot), a text file's as one page.
func (s *Service) extract(ctx context.Context, sha, kind string) ([]Page, bool, error) {
	path := s.o.BlobPath(sha)
	if kind == "text" {
		f, err := os.Open(path)
		if err != nil {
			return nil, false, fmt.Errorf("open the document: %w", err)
		}
		defer f.Close()
		max := s.o.Bounds.Text
		if max <= 0 {
			max = doctext.DefaultText
		}
		text, truncated, err := doctext.Text(f, max)
		if err != nil {
			return nil, false, err
		}
		return []Page{{N: 1, Text: text}}, truncated, nil
	}
	select {
	case s.readers <- struct{}{}:
		defer func() { <-s.readers }()
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	got, truncated, err := doctext.PDF(ctx, path, s.o.Bounds)
	if err != nil {
		return nil, false, err
	}
	pages := make([]Page, len(got))
	for i, p := range got {
		pages[i] = Page{N: p.N, Text: p.Text}
	}
	return pages, truncated, nil
}

// Excerpts are the chunks of the documents shas that best match query (FTS5's
// bm25 over the words of the query), best first, at most limit. A query with
// nothing to look for, or that matches nothing, answers the documents' first
// chunks. Documents not read yet are read first; one that cannot be read is left
// out.
func (s *Service) Excerpts(ctx context.Context, shas []string, query string, limit int) ([]Chunk, error) {
	if limit <= 0 || len(shas) == 0 {
		return nil, nil
	}
	for _, sha := range shas {
		if _, err := s.o.Store.GetDocText(ctx, sha); !errors.Is(err, store.ErrNotFound) {
			continue
		}
		b, err := s.o.Store.GetBlob(ctx, sha)
		if errors.Is(err, store.ErrNotFound) {
			continue // collected meanwhile: nothing to search
		}
		if err != nil {
			return nil, err
		}
		if !IsDocument(b.Kind) {
			continue
		}
		if _, err := s.document(ctx, sha, b.Kind); err != nil && !errors.As(err, new(*doctext.Error)) {
			return nil, err
		}
	}
	var found []store.DocChunk
	var err error
	if match := matchExpr(query); match != "" {
		found, err = s.o.Store.SearchDocChunks(ctx, shas, match, limit)
	}
	if err == nil && len(found) == 0 {
		found, err = s.o.Store.FirstDocChunks(ctx, shas, limit)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Chunk, len(found))
	for i, c := range found {
		out[i] = Chunk{SHA256: c.SHA256, Page: c.Page, Text: c.Text}
	}
	return out, nil
}
