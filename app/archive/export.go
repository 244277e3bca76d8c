package archive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Format is what an export is written as.
type Format string

// The export formats.
const (
	JSON     Format = "json"
	Markdown Format = "md"
	// Zip is the JSON without the attachments' bytes (conversations.json) and each
	// file beside it (attachments/<sha256>).
	Zip Format = "zip"
)

// ParseFormat reads a format's name: json (also the default, ""), md or markdown,
// zip.
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "", "json":
		return JSON, nil
	case "md", "markdown":
		return Markdown, nil
	case "zip":
		return Zip, nil
	}
	return "", fault.Invalid.Errorf("unknown export format %q: use json, md or zip", clip(name))
}

// ContentType is the media type of an export in this format.
func (f Format) ContentType() string {
	switch f {
	case Markdown:
		return "text/markdown; charset=utf-8"
	case Zip:
		return "application/zip"
	}
	return "application/json; charset=utf-8"
}

// Export is an export that has been checked and is ready to be written: its
// conversations are read while it is written, one at a time, so a big history is
// never held whole in memory.
type Export struct {
	// Filename is a safe name to save it under.
	Filename string
	Format   Format
	at       time.Time
	all      bool
	convs    []store.Conversation
	s        *Service
}

// ExportConversation prepares the export of one conversation; fault.NotFound if
// there is none with that id.
func (s *Service) ExportConversation(ctx context.Context, id string, f Format) (*Export, error) {
	c, err := s.store.Conversation(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fault.NotFound.Errorf("conversation not found")
	}
	if err != nil {
		return nil, err
	}
	if f == JSON {
		if err := s.checkInline(ctx, []string{c.ID}); err != nil {
			return nil, err
		}
	}
	at := s.now()
	return &Export{Filename: conversationFilename(c.Title, at, f), Format: f, at: at, convs: []store.Conversation{c}, s: s}, nil
}

// ExportAll prepares the export of every conversation, oldest first.
func (s *Service) ExportAll(ctx context.Context, f Format) (*Export, error) {
	convs, err := s.store.Conversations(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(convs, func(a, b store.Conversation) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if f == JSON {
		if err := s.checkInline(ctx, nil); err != nil {
			return nil, err
		}
	}
	at := s.now()
	return &Export{Filename: allFilename(at, f), Format: f, at: at, all: true, convs: convs, s: s}, nil
}

// WriteTo writes the export to w. A conversation deleted since the export was
// prepared is left out. After an error w holds a cut export: it must not be
// presented as a whole one.
func (e *Export) WriteTo(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch e.Format {
	case Markdown:
		err = e.writeMarkdown(ctx, bw)
	case Zip:
		err = e.writeZip(ctx, bw)
	default:
		err = e.writeJSON(ctx, bw, e.inline)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// each loads every conversation's records in turn and hands them to fn.
func (e *Export) each(ctx context.Context, fn func(i int, r records) error) error {
	n := 0
	for _, c := range e.convs {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := e.s.store.Conversation(ctx, c.ID) // as it is now: its leaf may have moved
		if errors.Is(err, store.ErrNotFound) {
			continue // deleted meanwhile
		} else if err != nil {
			return err
		}
		r, err := load(ctx, e.s.store, c, e.Format == Markdown)
		if err != nil {
			return fmt.Errorf("export conversation %s: %w", c.ID, err)
		}
		if err := fn(n, r); err != nil {
			return err
		}
		n++
	}
	return nil
}

// inline puts the bytes of a conversation's attachments in its JSON (when Wisp keeps
// them: checkInline bounded them).
func (e *Export) inline(ctx context.Context, r records, c *Conversation) error {
	if e.s.blobs == nil {
		return nil
	}
	return e.s.fillData(ctx, c, r.files)
}

// writeJSON writes the document: its head, then each conversation as it is read,
// given to fill before it is written.
func (e *Export) writeJSON(ctx context.Context, w io.Writer, fill func(context.Context, records, *Conversation) error) error {
	at, _ := json.Marshal(wire.ISOTime(e.at))
	fmt.Fprintf(w, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"exportedAt\": %s,\n  \"conversations\": [", FormatName, Version, at)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	wrote := false
	err := e.each(ctx, func(i int, r records) error {
		buf.Reset()
		doc := r.document()
		if err := fill(ctx, r, &doc); err != nil {
			return err
		}
		if err := enc.Encode(doc); err != nil {
			return err
		}
		if i > 0 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, "\n    ")
		if _, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return err
		}
		wrote = true
		return nil
	})
	if err != nil {
		return err
	}
	if wrote {
		io.WriteString(w, "\n  ")
	}
	_, err = io.WriteString(w, "]\n}\n")
	return err
}
