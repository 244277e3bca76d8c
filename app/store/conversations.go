package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
)

// ErrNotFound reports that a record (or the record a new one belongs to) does not
// exist. Check it with errors.Is.
var ErrNotFound = errors.New("not found")

// Conversation is one chat thread.
type Conversation struct {
	ID, Title, RoomID    string
	Metadata             json.RawMessage // nil when absent
	CreatedAt, UpdatedAt time.Time
	// Unread is set when a proactive message arrived while no client had it open.
	Unread bool
	// ActiveLeafID is the last message of the branch shown ("" when it has none). It
	// is read only: messages move it (AddMessage, EndRun, Tx.SetActiveLeaf).
	ActiveLeafID string
}

const conversationColumns = "id, title, room_id, metadata, created_at, updated_at, unread, active_leaf_id"

// CreateConversation saves a new conversation. A zero UpdatedAt is taken to be
// CreatedAt.
func (s *Store) CreateConversation(ctx context.Context, c Conversation) error {
	return createConversation(ctx, s.db, c)
}

func createConversation(ctx context.Context, q querier, c Conversation) error {
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = c.CreatedAt
	}
	if err := requireTime("created at", c.CreatedAt); err != nil {
		return fmt.Errorf("create conversation %s: %w", c.ID, err)
	}
	meta, err := jsonColumn("metadata", c.Metadata)
	if err != nil {
		return fmt.Errorf("create conversation %s: %w", c.ID, err)
	}
	_, err = q.ExecContext(ctx,
		"INSERT INTO conversations ("+conversationColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
		c.ID, c.Title, c.RoomID, meta, c.CreatedAt.UnixMilli(), c.UpdatedAt.UnixMilli(), c.Unread)
	if err != nil {
		return fmt.Errorf("create conversation %s: %w", c.ID, err)
	}
	return nil
}

// Conversations lists every conversation, the most recently updated first.
func (s *Store) Conversations(ctx context.Context) ([]Conversation, error) {
	return queryAll(ctx, s.db, "list conversations", scanConversation,
		"SELECT "+conversationColumns+" FROM conversations ORDER BY updated_at DESC, created_at DESC, rowid DESC, id")
}

// Conversation returns one conversation, or ErrNotFound.
func (s *Store) Conversation(ctx context.Context, id string) (Conversation, error) {
	return conversation(ctx, s.db, id)
}

func conversation(ctx context.Context, q querier, id string) (Conversation, error) {
	row := q.QueryRowContext(ctx, "SELECT "+conversationColumns+" FROM conversations WHERE id = ?", id)
	c, err := scanConversation(row)
	if err != nil {
		return Conversation{}, fmt.Errorf("load conversation %s: %w", id, notFound(err))
	}
	return c, nil
}

// latestConversation is the most recently updated conversation; ErrNotFound when
// there is none.
func latestConversation(ctx context.Context, q querier) (Conversation, error) {
	row := q.QueryRowContext(ctx, "SELECT "+conversationColumns+
		" FROM conversations ORDER BY updated_at DESC, created_at DESC, rowid DESC, id LIMIT 1")
	c, err := scanConversation(row)
	if err != nil {
		return Conversation{}, fmt.Errorf("latest conversation: %w", notFound(err))
	}
	return c, nil
}

// MarkRead clears a conversation's unread mark. It returns the conversation and
// true only when the mark was set (a missing conversation is not an error).
func (s *Store) MarkRead(ctx context.Context, id string) (Conversation, bool, error) {
	row := s.db.QueryRowContext(ctx,
		"UPDATE conversations SET unread = 0 WHERE id = ? AND unread = 1 RETURNING "+conversationColumns, id)
	c, err := scanConversation(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Conversation{}, false, nil
	}
	if err != nil {
		return Conversation{}, false, fmt.Errorf("mark %s read: %w", id, err)
	}
	return c, true, nil
}

// SetConversationTitle renames a conversation, moves its updated_at forward to at,
// and returns it; ErrNotFound if it does not exist.
func (s *Store) SetConversationTitle(ctx context.Context, id, title string, at time.Time) (Conversation, error) {
	row := s.db.QueryRowContext(ctx,
		"UPDATE conversations SET title = ?, updated_at = MAX(updated_at, ?) WHERE id = ? RETURNING "+conversationColumns,
		title, at.UnixMilli(), id)
	c, err := scanConversation(row)
	if err != nil {
		return Conversation{}, fmt.Errorf("rename conversation %s: %w", id, notFound(err))
	}
	return c, nil
}

// DeleteConversation deletes a conversation with its messages, runs (and their
// events) and display messages; ErrNotFound if it does not exist.
func (s *Store) DeleteConversation(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM conversations WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete conversation %s: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("delete conversation %s: %w", id, err)
	}
	return nil
}

// touchConversationTx moves a conversation's updated_at forward to at; ErrNotFound if
// it does not exist.
func touchConversationTx(ctx context.Context, tx *sql.Tx, id string, at time.Time) error {
	res, err := tx.ExecContext(ctx,
		"UPDATE conversations SET updated_at = MAX(updated_at, ?) WHERE id = ?", at.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("touch conversation %s: %w", id, err)
	}
	if err := mustAffect(res); err != nil {
		return fmt.Errorf("conversation %s: %w", id, err)
	}
	return nil
}

func scanConversation(r scanner) (Conversation, error) {
	var c Conversation
	var meta []byte
	var created, updated int64
	var leaf sql.NullString
	if err := r.Scan(&c.ID, &c.Title, &c.RoomID, &meta, &created, &updated, &c.Unread, &leaf); err != nil {
		return Conversation{}, err
	}
	c.Metadata, c.ActiveLeafID = meta, leaf.String
	c.CreatedAt, c.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
	return c, nil
}

// The helpers below map Go values to columns and back for every repository file.
// Optional text is NULL when empty; JSON is TEXT (never BLOB, which STRICT tables
// refuse in a TEXT column) and NULL when nil; times are unix milliseconds.

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// querier is a *sql.DB or a *sql.Tx: repository code written against it runs alone
// or inside a transaction (see Tx).
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// optText stores "" as NULL.
func optText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// optMillis stores the zero time as NULL.
func optMillis(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// fromOptMillis reads a nullable millisecond column; NULL is the zero time.
func fromOptMillis(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return time.UnixMilli(ms.Int64)
}

// requireTime refuses a zero time for a required time column, which would otherwise
// be stored as the year 1.
func requireTime(field string, t time.Time) error {
	if t.IsZero() {
		return fmt.Errorf("%s is required", field)
	}
	return nil
}

// jsonColumn checks a JSON value and returns it as a column value: nil (or empty)
// becomes NULL.
func jsonColumn(field string, v json.RawMessage) (any, error) {
	if len(v) == 0 {
		return nil, nil
	}
	if !json.Valid(v) {
		return nil, fmt.Errorf("%s is not valid JSON", field)
	}
	return string(v), nil
}

// notFound turns sql.ErrNoRows and foreign key violations (the parent record is
// missing) into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var se sqlite3.Error
	if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintForeignKey {
		return fmt.Errorf("%w (%v)", ErrNotFound, err)
	}
	return err
}

// mustAffect is ErrNotFound when a statement changed no row.
func mustAffect(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// queryAll runs a query and scans every row; what names the query in errors.
func queryAll[T any](ctx context.Context, db querier, what string, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// LatestConversation is the most recently updated conversation; ErrNotFound when
// there is none.
func (s *Store) LatestConversation(ctx context.Context) (Conversation, error) {
	return latestConversation(ctx, s.db)
}
