package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mattn/go-sqlite3"
)

// fileEditsMigration keeps what the agent's file actions need across restarts: the
// content hash of each file a conversation's model read (an edit of a file changed
// since is refused), and each edit's previous content (undo).
const fileEditsMigration = `CREATE TABLE file_reads (
		conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
		path            TEXT    NOT NULL,
		sha256          TEXT    NOT NULL,
		read_at         INTEGER NOT NULL,
		PRIMARY KEY (conversation_id, path)
	) STRICT;
	CREATE TABLE file_edits (
		id              TEXT    PRIMARY KEY,
		run_id          TEXT    NOT NULL,
		call_id         TEXT    NOT NULL,
		conversation_id TEXT    REFERENCES conversations (id) ON DELETE SET NULL,
		path            TEXT    NOT NULL,
		existed         INTEGER NOT NULL CHECK (existed IN (0, 1)),
		before          BLOB,
		before_mode     INTEGER NOT NULL DEFAULT 0,
		after_sha256    TEXT    NOT NULL,
		created_at      INTEGER NOT NULL,
		undone_at       INTEGER,
		UNIQUE (run_id, call_id)
	) STRICT;
	CREATE INDEX file_edits_conversation ON file_edits (conversation_id);
	CREATE INDEX file_edits_call ON file_edits (call_id);`

// ErrUndone reports an undo of an edit already undone.
var ErrUndone = errors.New("already undone")

// FileEdit is a change the agent made to a file: what it was before (Before is nil
// when it was too large to keep: no undo), and the hash of what it wrote.
type FileEdit struct {
	ID, RunID, CallID, ConversationID, Path string
	// Existed is false when the edit created the file (its undo removes it).
	Existed bool
	// Before is nil when nothing was kept, empty for an empty file.
	Before      []byte
	BeforeMode  fs.FileMode
	AfterSHA256 string
	CreatedAt   time.Time
	UndoneAt    time.Time // zero until undone
}

const fileEditColumns = "id, run_id, call_id, conversation_id, path, existed, before, before_mode, after_sha256, created_at, undone_at"

// SetFileRead records the hash of a file a conversation's model read now.
func (s *Store) SetFileRead(ctx context.Context, conversationID, path, sha string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO file_reads (conversation_id, path, sha256, read_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (conversation_id, path) DO UPDATE SET sha256 = excluded.sha256, read_at = excluded.read_at`,
		conversationID, path, sha, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("record file read: %w", notFound(err))
	}
	return nil
}

// FileReadSHA is the hash of path as a conversation's model last read it, or
// ErrNotFound when it never read it.
func (s *Store) FileReadSHA(ctx context.Context, conversationID, path string) (string, error) {
	var sha string
	err := s.db.QueryRowContext(ctx, "SELECT sha256 FROM file_reads WHERE conversation_id = ? AND path = ?",
		conversationID, path).Scan(&sha)
	if err != nil {
		return "", fmt.Errorf("load file read: %w", notFound(err))
	}
	return sha, nil
}

// AddFileEdit saves an applied edit; ErrDuplicate when its call saved one already.
func (s *Store) AddFileEdit(ctx context.Context, e FileEdit) error {
	if err := requireTime("created at", e.CreatedAt); err != nil {
		return fmt.Errorf("add file edit: %w", err)
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO file_edits ("+fileEditColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
		e.ID, e.RunID, e.CallID, optText(e.ConversationID), e.Path, e.Existed, e.Before, int64(e.BeforeMode),
		e.AfterSHA256, e.CreatedAt.UnixMilli())
	var se sqlite3.Error
	if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
		return fmt.Errorf("add file edit: %w", ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("add file edit: %w", notFound(err))
	}
	return nil
}

// FileEditByID is one edit, or ErrNotFound.
func (s *Store) FileEditByID(ctx context.Context, id string) (FileEdit, error) {
	e, err := scanFileEdit(s.db.QueryRowContext(ctx, "SELECT "+fileEditColumns+" FROM file_edits WHERE id = ?", id))
	if err != nil {
		return FileEdit{}, fmt.Errorf("load file edit %s: %w", id, notFound(err))
	}
	return e, nil
}

// FileEditsOfCall are the edits a call made (none or one).
func (s *Store) FileEditsOfCall(ctx context.Context, callID string) ([]FileEdit, error) {
	return queryAll(ctx, s.db, "list file edits", scanFileEdit,
		"SELECT "+fileEditColumns+" FROM file_edits WHERE call_id = ? ORDER BY created_at", callID)
}

// MarkFileEditUndone marks an edit undone; ErrUndone when it was already,
// ErrNotFound when there is no such edit.
func (s *Store) MarkFileEditUndone(ctx context.Context, id string, at time.Time) (FileEdit, error) {
	e, err := scanFileEdit(s.db.QueryRowContext(ctx, "UPDATE file_edits SET undone_at = ? WHERE id = ? AND undone_at IS NULL RETURNING "+
		fileEditColumns, at.UnixMilli(), id))
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := s.FileEditByID(ctx, id); err != nil {
			return FileEdit{}, err
		}
		return FileEdit{}, fmt.Errorf("undo file edit %s: %w", id, ErrUndone)
	}
	if err != nil {
		return FileEdit{}, fmt.Errorf("undo file edit %s: %w", id, err)
	}
	return e, nil
}

func scanFileEdit(r scanner) (FileEdit, error) {
	var e FileEdit
	var conv sql.NullString
	var mode, created int64
	var undone sql.NullInt64
	var before sql.Null[[]byte]
	if err := r.Scan(&e.ID, &e.RunID, &e.CallID, &conv, &e.Path, &e.Existed, &before, &mode, &e.AfterSHA256,
		&created, &undone); err != nil {
		return FileEdit{}, err
	}
	if before.Valid { // an empty file's previous content is kept too: not nil
		e.Before = append([]byte{}, before.V...)
	}
	e.ConversationID, e.BeforeMode = conv.String, fs.FileMode(mode)
	e.CreatedAt, e.UndoneAt = time.UnixMilli(created), fromOptMillis(undone)
	return e, nil
}
