package store

import (
	"context"
	"fmt"
	"time"
)

// The reads and deletes the attachments' garbage collection (app/attach) needs. The
// caller serialises them with its uploads: a blob is only deleted while nothing can
// name it anew.

// BlobBytes is the size of every stored blob together.
func (s *Store) BlobBytes(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM blobs`).Scan(&n); err != nil {
		return 0, fmt.Errorf("blob bytes: %w", err)
	}
	return n, nil
}

// DeleteUnlistedAttachments deletes the attachments no message lists that were
// created before before, in one statement: a message that links one at the same time
// either sees it or is refused (the link's foreign key), never half of each.
func (s *Store) DeleteUnlistedAttachments(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM attachments WHERE created_at < ?
		AND NOT EXISTS (SELECT 1 FROM message_attachments ma WHERE ma.attachment_id = attachments.id)`, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("delete unlisted attachments: %w", err)
	}
	return res.RowsAffected()
}

// DeleteUnnamedBlobs deletes the blobs no attachment names and answers their hashes.
func (s *Store) DeleteUnnamedBlobs(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `DELETE FROM blobs
		WHERE NOT EXISTS (SELECT 1 FROM attachments a WHERE a.sha256 = blobs.sha256) RETURNING sha256`)
	if err != nil {
		return nil, fmt.Errorf("delete unnamed blobs: %w", err)
	}
	defer rows.Close()
	var shas []string
	for rows.Next() {
		var sha string
		if err := rows.Scan(&sha); err != nil {
			return nil, fmt.Errorf("delete unnamed blobs: %w", err)
		}
		shas = append(shas, sha)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("delete unnamed blobs: %w", err)
	}
	return shas, nil
}

// BlobHashes is the hash of every stored blob.
func (s *Store) BlobHashes(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT sha256 FROM blobs`)
	if err != nil {
		return nil, fmt.Errorf("blob hashes: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var sha string
		if err := rows.Scan(&sha); err != nil {
			return nil, fmt.Errorf("blob hashes: %w", err)
		}
		out[sha] = true
	}
	return out, rows.Err()
}
