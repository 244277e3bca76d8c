package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Blob is a file's bytes as the store knows them: stored once per SHA256 (hex).
type Blob struct {
	SHA256        string
	Size          int64
	MIME, Kind    string
	Width, Height int
	Pages         int // a PDF's, once read (SetBlobPages)
	CreatedAt     time.Time
}

// Attachment is one upload of a blob under a name.
type Attachment struct {
	ID, SHA256, Name string
	CreatedAt        time.Time
	Blob             Blob // filled by the reads
}

// PutBlob records a blob unless one with its hash exists; it answers the stored one.
func (s *Store) PutBlob(ctx context.Context, b Blob) (Blob, error) {
	if err := requireTime("created at", b.CreatedAt); err != nil {
		return Blob{}, err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO blobs (sha256, size, mime, kind, width, height, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
		b.SHA256, b.Size, b.MIME, b.Kind, b.Width, b.Height, b.CreatedAt.UnixMilli())
	if err != nil {
		return Blob{}, fmt.Errorf("put blob %s: %w", b.SHA256, err)
	}
	return s.GetBlob(ctx, b.SHA256)
}

// GetBlob returns a blob by hash, or ErrNotFound.
func (s *Store) GetBlob(ctx context.Context, sha string) (Blob, error) {
	var b Blob
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT sha256, size, mime, kind, width, height, pages, created_at FROM blobs WHERE sha256 = ?`, sha).
		Scan(&b.SHA256, &b.Size, &b.MIME, &b.Kind, &b.Width, &b.Height, &b.Pages, &at)
	if err != nil {
		return Blob{}, fmt.Errorf("blob %s: %w", sha, notFound(err))
	}
	b.CreatedAt = time.UnixMilli(at)
	return b, nil
}

// SetBlobPages records how many pages a PDF has once it is read.
func (s *Store) SetBlobPages(ctx context.Context, sha string, pages int) error {
	res, err := s.db.ExecContext(ctx, `UPDATE blobs SET pages = ? WHERE sha256 = ?`, pages, sha)
	if err != nil {
		return fmt.Errorf("set the pages of %s: %w", sha, err)
	}
	return mustAffect(res)
}

// CreateAttachment records an upload of a blob the store has.
func (s *Store) CreateAttachment(ctx context.Context, a Attachment) (Attachment, error) {
	if err := requireTime("created at", a.CreatedAt); err != nil {
		return Attachment{}, err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO attachments (id, sha256, name, created_at) VALUES (?, ?, ?, ?)`,
		a.ID, a.SHA256, a.Name, a.CreatedAt.UnixMilli())
	if err != nil {
		return Attachment{}, fmt.Errorf("create attachment %s: %w", a.ID, duplicate(notFound(err)))
	}
	return s.GetAttachment(ctx, a.ID)
}

const attachmentSelect = `SELECT a.id, a.sha256, a.name, a.created_at, b.size, b.mime, b.kind, b.width, b.height, b.pages, b.created_at
	FROM attachments a JOIN blobs b ON b.sha256 = a.sha256`

func scanAttachment(sc interface{ Scan(...any) error }) (Attachment, error) {
	var a Attachment
	var at, bat int64
	err := sc.Scan(&a.ID, &a.SHA256, &a.Name, &at, &a.Blob.Size, &a.Blob.MIME, &a.Blob.Kind, &a.Blob.Width, &a.Blob.Height, &a.Blob.Pages, &bat)
	a.CreatedAt, a.Blob.SHA256, a.Blob.CreatedAt = time.UnixMilli(at), a.SHA256, time.UnixMilli(bat)
	return a, err
}

// GetAttachment returns an attachment with its blob, or ErrNotFound.
func (s *Store) GetAttachment(ctx context.Context, id string) (Attachment, error) {
	a, err := scanAttachment(s.db.QueryRowContext(ctx, attachmentSelect+` WHERE a.id = ?`, id))
	if err != nil {
		return Attachment{}, fmt.Errorf("attachment %s: %w", id, notFound(err))
	}
	return a, nil
}

// MessageAttachments returns the attachments of each of messageIDs that has any, in
// the order they were attached.
func (s *Store) MessageAttachments(ctx context.Context, messageIDs []string) (map[string][]Attachment, error) {
	out := map[string][]Attachment{}
	for len(messageIDs) > 0 {
		page := messageIDs[:min(len(messageIDs), 500)]
		messageIDs = messageIDs[len(page):]
		args := make([]any, len(page))
		for i, id := range page {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT ma.message_id, a.id, a.sha256, a.name, a.created_at, b.size, b.mime, b.kind,
			b.width, b.height, b.pages, b.created_at FROM message_attachments ma JOIN attachments a ON a.id = ma.attachment_id
			JOIN blobs b ON b.sha256 = a.sha256 WHERE ma.message_id IN (?`+strings.Repeat(", ?", len(page)-1)+`)
			ORDER BY ma.message_id, ma.ord`, args...)
		if err != nil {
			return nil, fmt.Errorf("message attachments: %w", err)
		}
		if err := scanMessageAttachments(rows, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func scanMessageAttachments(rows *sql.Rows, out map[string][]Attachment) error {
	defer rows.Close()
	for rows.Next() {
		var msg string
		var a Attachment
		var at, bat int64
		if err := rows.Scan(&msg, &a.ID, &a.SHA256, &a.Name, &at, &a.Blob.Size, &a.Blob.MIME, &a.Blob.Kind,
			&a.Blob.Width, &a.Blob.Height, &a.Blob.Pages, &bat); err != nil {
			return fmt.Errorf("message attachments: %w", err)
		}
		a.CreatedAt, a.Blob.SHA256, a.Blob.CreatedAt = time.UnixMilli(at), a.SHA256, time.UnixMilli(bat)
		out[msg] = append(out[msg], a)
	}
	return rows.Err()
}

// linkAttachmentsTx lists attachments on a message being saved, in order.
func linkAttachmentsTx(ctx context.Context, tx *sql.Tx, messageID string, ids []string) error {
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx, `INSERT INTO message_attachments (message_id, ord, attachment_id) VALUES (?, ?, ?)`,
			messageID, i, id); err != nil {
			return fmt.Errorf("attach %s: %w", id, notFound(err))
		}
	}
	return nil
}
