package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// docTextMigration: the text of the documents users attach (docs/attachments.md,
// "Documents"), read once per blob. doc_texts says how the reading went (ok, or
// error with the reason, so a hostile file is not read again on every turn);
// doc_pages holds each page's text; doc_chunks the pieces of it search works on,
// indexed by FTS5 (the table's content read from doc_chunks by rowid, kept in step
// by triggers). Deleting a blob removes its text, pages and chunks.
const docTextMigration = `CREATE TABLE doc_texts (
		sha256     TEXT    PRIMARY KEY REFERENCES blobs (sha256) ON DELETE CASCADE,
		status     TEXT    NOT NULL CHECK (status IN ('ok', 'error')),
		error      TEXT    NOT NULL DEFAULT '',
		pages      INTEGER NOT NULL DEFAULT 0,
		truncated  INTEGER NOT NULL DEFAULT 0,
		tokens     INTEGER NOT NULL DEFAULT 0,
		created_at INTEGER NOT NULL
	) STRICT;
	CREATE TABLE doc_pages (
		sha256 TEXT    NOT NULL REFERENCES doc_texts (sha256) ON DELETE CASCADE,
		n      INTEGER NOT NULL,
		text   TEXT    NOT NULL,
		PRIMARY KEY (sha256, n)
	) STRICT, WITHOUT ROWID;
	CREATE TABLE doc_chunks (
		id     INTEGER PRIMARY KEY,
		sha256 TEXT    NOT NULL REFERENCES doc_texts (sha256) ON DELETE CASCADE,
		n      INTEGER NOT NULL,
		page   INTEGER NOT NULL,
		text   TEXT    NOT NULL,
		tokens INTEGER NOT NULL,
		UNIQUE (sha256, n)
	) STRICT;
	CREATE VIRTUAL TABLE doc_chunks_fts USING fts5 (
		text,
		content = 'doc_chunks', content_rowid = 'id',
		tokenize = 'unicode61 remove_diacritics 2'
	);
	CREATE TRIGGER doc_chunks_fts_insert AFTER INSERT ON doc_chunks BEGIN
		INSERT INTO doc_chunks_fts (rowid, text) VALUES (new.id, new.text);
	END;
	CREATE TRIGGER doc_chunks_fts_delete AFTER DELETE ON doc_chunks BEGIN
		INSERT INTO doc_chunks_fts (doc_chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
	END;`

// DocText is how the reading of a document's text went.
type DocText struct {
	SHA256    string
	Failed    bool   // status 'error': Error says why, and there are no pages
	Error     string //
	Pages     int
	Truncated bool
	Tokens    int
	CreatedAt time.Time
}

// DocPage is one page's text (N from 1).
type DocPage struct {
	N    int
	Text string
}

// DocChunk is a piece of a page's text, the unit of search; N numbers a
// document's chunks from 0 in reading order.
type DocChunk struct {
	SHA256 string
	N      int
	Page   int
	Text   string
	Tokens int
}

// SaveDocText records a document's text, pages and chunks, replacing what was
// there; the blob must exist.
func (s *Store) SaveDocText(ctx context.Context, t DocText, pages []DocPage, chunks []DocChunk) error {
	if err := requireTime("created at", t.CreatedAt); err != nil {
		return err
	}
	return s.InTx(ctx, func(tx *Tx) error {
		db := tx.tx
		if _, err := db.ExecContext(ctx, `DELETE FROM doc_texts WHERE sha256 = ?`, t.SHA256); err != nil {
			return fmt.Errorf("save the text of %s: %w", t.SHA256, err)
		}
		status := "ok"
		if t.Failed {
			status = "error"
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO doc_texts (sha256, status, error, pages, truncated, tokens, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, t.SHA256, status, t.Error, t.Pages, t.Truncated, t.Tokens, t.CreatedAt.UnixMilli()); err != nil {
			return fmt.Errorf("save the text of %s: %w", t.SHA256, notFound(err))
		}
		page, err := db.PrepareContext(ctx, `INSERT INTO doc_pages (sha256, n, text) VALUES (?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("save the pages of %s: %w", t.SHA256, err)
		}
		defer page.Close()
		for _, p := range pages {
			if _, err := page.ExecContext(ctx, t.SHA256, p.N, p.Text); err != nil {
				return fmt.Errorf("save page %d of %s: %w", p.N, t.SHA256, err)
			}
		}
		chunk, err := db.PrepareContext(ctx, `INSERT INTO doc_chunks (sha256, n, page, text, tokens) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("save the chunks of %s: %w", t.SHA256, err)
		}
		defer chunk.Close()
		for _, c := range chunks {
			if _, err := chunk.ExecContext(ctx, t.SHA256, c.N, c.Page, c.Text, c.Tokens); err != nil {
				return fmt.Errorf("save chunk %d of %s: %w", c.N, t.SHA256, err)
			}
		}
		return nil
	})
}

// GetDocText returns how the reading of a document went, or ErrNotFound when it
// was not read.
func (s *Store) GetDocText(ctx context.Context, sha string) (DocText, error) {
	t := DocText{SHA256: sha}
	var status string
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT status, error, pages, truncated, tokens, created_at FROM doc_texts WHERE sha256 = ?`, sha).
		Scan(&status, &t.Error, &t.Pages, &t.Truncated, &t.Tokens, &at)
	if err != nil {
		return DocText{}, fmt.Errorf("the text of %s: %w", sha, notFound(err))
	}
	t.Failed, t.CreatedAt = status == "error", time.UnixMilli(at)
	return t, nil
}

// DocPages returns a document's pages in order.
func (s *Store) DocPages(ctx context.Context, sha string) ([]DocPage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT n, text FROM doc_pages WHERE sha256 = ? ORDER BY n`, sha)
	if err != nil {
		return nil, fmt.Errorf("the pages of %s: %w", sha, err)
	}
	defer rows.Close()
	var out []DocPage
	for rows.Next() {
		var p DocPage
		if err := rows.Scan(&p.N, &p.Text); err != nil {
			return nil, fmt.Errorf("the pages of %s: %w", sha, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SearchDocChunks returns the chunks of the documents shas that match the FTS5
// expression match, best first (bm25), at most limit.
func (s *Store) SearchDocChunks(ctx context.Context, shas []string, match string, limit int) ([]DocChunk, error) {
	if len(shas) == 0 || limit <= 0 {
		return nil, nil
	}
	in, args := inList(shas)
	args = append([]any{match}, args...)
	rows, err := s.db.QueryContext(ctx, `SELECT c.sha256, c.n, c.page, c.text, c.tokens FROM doc_chunks_fts
		JOIN doc_chunks c ON c.id = doc_chunks_fts.rowid
		WHERE doc_chunks_fts MATCH ? AND c.sha256 IN `+in+`
		ORDER BY doc_chunks_fts.rank, c.sha256, c.n LIMIT `+fmt.Sprint(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("search document chunks: %w", err)
	}
	return scanDocChunks(rows)
}

// FirstDocChunks returns the chunks at the start of the documents shas, each
// document's in turn (by chunk number, then hash), at most limit.
func (s *Store) FirstDocChunks(ctx context.Context, shas []string, limit int) ([]DocChunk, error) {
	if len(shas) == 0 || limit <= 0 {
		return nil, nil
	}
	in, args := inList(shas)
	rows, err := s.db.QueryContext(ctx, `SELECT sha256, n, page, text, tokens FROM doc_chunks
		WHERE sha256 IN `+in+` ORDER BY n, sha256 LIMIT `+fmt.Sprint(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("first document chunks: %w", err)
	}
	return scanDocChunks(rows)
}

// inList is "(?, ?, …)" for the values and the values as arguments.
func inList(values []string) (string, []any) {
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	return "(?" + strings.Repeat(", ?", len(values)-1) + ")", args
}

func scanDocChunks(rows *sql.Rows) ([]DocChunk, error) {
	defer rows.Close()
	var out []DocChunk
	for rows.Next() {
		var c DocChunk
		if err := rows.Scan(&c.SHA256, &c.N, &c.Page, &c.Text, &c.Tokens); err != nil {
			return nil, fmt.Errorf("document chunks: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("document chunks: %w", err)
	}
	return out, nil
}
