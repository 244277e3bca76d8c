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
)

// ParseFormat reads a format's name: json (also the default, ""), md or markdown.
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "", "json":
		return JSON, nil
	case "md", "markdown":
		return Markdown, nil
	}
	return "", fault.Invalid.Errorf("unknown export format %q: use json or md", clip(name))
}

// ContentType is the media type of an export in this format.
func (f Format) ContentType() string {
	if f == Markdown {
		return "text/markdown; charset=utf-8"
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
	at := s.now()
	return &Export{Filename: allFilename(at, f), Format: f, at: at, all: true, convs: convs, s: s}, nil
}

// WriteTo writes the export to w. A conversation deleted since the export was
// prepared is left out. After an error w holds a cut export: it must not be
// presented as a whole one.
func (e *Export) WriteTo(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	if e.Format == Markdown {
		err = e.writeMarkdown(ctx, bw)
	} else {
		err = e.writeJSON(ctx, bw)
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

// writeJSON writes the document: its head, then each conversation as it is read.
func (e *Export) writeJSON(ctx context.Context, w *bufio.Writer) error {
	at, _ := json.Marshal(wire.ISOTime(e.at))
	fmt.Fprintf(w, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"exportedAt\": %s,\n  \"conversations\": [", FormatName, Version, at)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	wrote := false
	err := e.each(ctx, func(i int, r records) error {
		buf.Reset()
		if err := enc.Encode(r.document()); err != nil {
			return err
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		wrote = true
		return nil
	})
	if err != nil {
		return err
	}
	if wrote {
		w.WriteString("\n  ")
	}
	_, err = w.WriteString("]\n}\n")
	return err
}
