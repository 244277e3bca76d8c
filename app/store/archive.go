package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// ErrDuplicate reports that a record brought in (Tx.Import*) has an id another
// record already has. Check it with errors.Is.
var ErrDuplicate = errors.New("the id is already taken")

// The reads below are what an export needs beyond the chat's own: every row of a
// conversation, in the order it was saved.

// AllMessages returns every message of a conversation, on every branch, in the
// order they were saved (a parent before its children).
func (s *Store) AllMessages(ctx context.Context, conversationID string) ([]Message, error) {
	return queryAll(ctx, s.db, "load all messages", scanMessage,
		"SELECT "+messageColumns+" FROM messages WHERE conversation_id = ? ORDER BY n", conversationID)
}

// AllMessageCount is the number of messages of a conversation on every branch.
func (s *Store) AllMessageCount(ctx context.Context, conversationID string) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx,
		"SELECT COUNT(*) FROM messages WHERE conversation_id = ?", conversationID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count all messages: %w", err)
	}
	return n, nil
}

// AllDisplayMessages returns every display message of a conversation, oldest first.
func (s *Store) AllDisplayMessages(ctx context.Context, conversationID string) ([]DisplayMessage, error) {
	return s.DisplayMessages(ctx, conversationID, 0)
}

// ConversationRuns lists the runs of a conversation, oldest first.
func (s *Store) ConversationRuns(ctx context.Context, conversationID string) ([]Run, error) {
	return queryAll(ctx, s.db, "list conversation runs", scanRun,
		"SELECT "+runColumns+" FROM runs WHERE conversation_id = ? ORDER BY started_at, id", conversationID)
}

// RunOutputs returns the data of the output event (the last, should there be
// several) of each run of a conversation that has one, by run id.
func (s *Store) RunOutputs(ctx context.Context, conversationID string) (map[string]json.RawMessage, error) {
	type output struct {
		run  string
		data json.RawMessage
	}
	rows, err := queryAll(ctx, s.db, "load run outputs", func(r scanner) (output, error) {
		var o output
		var data []byte
		err := r.Scan(&o.run, &data)
		o.data = data
		return o, err
	}, `SELECT e.run_id, e.data FROM run_events e JOIN runs r ON r.id = e.run_id
		WHERE r.conversation_id = ? AND e.type = 'output' ORDER BY e.run_id, e.seq`, conversationID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(rows))
	for _, o := range rows {
		out[o.run] = o.data
	}
	return out, nil
}

// The writes below bring records in as they are: with their ids and times, without
// moving their conversation's updated_at. Use them in one Store.InTx per conversation.

// ImportConversation saves a conversation brought in from elsewhere, exactly as
// given; ErrDuplicate if its id is taken.
func (t *Tx) ImportConversation(ctx context.Context, c Conversation) error {
	return duplicate(createConversation(ctx, t.tx, c))
}

// ImportMessage saves a message as it is, under m.ParentID ("" for a first message),
// which must be saved before it in the same conversation; it touches neither its
// conversation's time nor its leaf (Tx.SetActiveLeaf). ErrDuplicate if its id is
// taken, ErrNotFound if the conversation or the parent does not exist.
func (t *Tx) ImportMessage(ctx context.Context, m Message) error {
	if err := insertMessageTx(ctx, t.tx, &m); err != nil {
		return fmt.Errorf("import message %s: %w", m.ID, err)
	}
	return nil
}

// ImportDisplayMessage saves a display message as it is (never replacing one);
// ErrDuplicate if its id is taken.
func (t *Tx) ImportDisplayMessage(ctx context.Context, d DisplayMessage) error {
	if err := requireTime("created at", d.CreatedAt); err != nil {
		return fmt.Errorf("import display message %s: %w", d.ID, err)
	}
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = d.CreatedAt
	}
	if len(d.Content) == 0 {
		return fmt.Errorf("import display message %s: content is required", d.ID)
	}
	content, err := jsonColumn("content", d.Content)
	if err != nil {
		return fmt.Errorf("import display message %s: %w", d.ID, err)
	}
	meta, err := jsonColumn("metadata", d.Metadata)
	if err != nil {
		return fmt.Errorf("import display message %s: %w", d.ID, err)
	}
	_, err = t.tx.ExecContext(ctx, "INSERT INTO display_messages ("+displayMessageColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		d.ID, d.ConversationID, optText(d.RunID), d.MessageType, d.ContentType, content,
		optText(d.Status), optText(d.ToolCallID), meta, d.CreatedAt.UnixMilli(), d.UpdatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("import display message %s: %w", d.ID, duplicate(notFound(err)))
	}
	return nil
}

// ImportRun saves a run that has ended, marked compacted, with output (when not nil)
// as its one logged event: an output event numbered 1 at its end. ErrDuplicate if
// its id is taken.
func (t *Tx) ImportRun(ctx context.Context, r Run, output json.RawMessage) error {
	switch r.Status {
	case RunEnded, RunFailed, RunInterrupted:
	default:
		return fmt.Errorf("import run %s: %q is not a final status", r.ID, r.Status)
	}
	if err := requireTime("started at", r.StartedAt); err != nil {
		return fmt.Errorf("import run %s: %w", r.ID, err)
	}
	if err := requireTime("ended at", r.EndedAt); err != nil {
		return fmt.Errorf("import run %s: %w", r.ID, err)
	}
	_, err := t.tx.ExecContext(ctx, "INSERT INTO runs ("+runColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
		r.ID, optText(r.ConversationID), optText(r.UserMessageID), r.Status, optText(r.Error),
		r.StartedAt.UnixMilli(), r.EndedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("import run %s: %w", r.ID, duplicate(notFound(err)))
	}
	if output == nil {
		return nil
	}
	data, err := jsonColumn("output", output)
	if err != nil {
		return fmt.Errorf("import run %s: %w", r.ID, err)
	}
	if _, err := t.tx.ExecContext(ctx, insertRunEventsSQL(1), r.ID, 1, "output", data, r.EndedAt.UnixMilli()); err != nil {
		return fmt.Errorf("import run %s output: %w", r.ID, err)
	}
	return nil
}

// duplicate turns a unique or primary key violation into ErrDuplicate.
func duplicate(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey) {
		return fmt.Errorf("%w (%v)", ErrDuplicate, err)
	}
	return err
}

// AttachmentBytes is the size of the distinct files the messages of the given
// conversations list (all conversations when ids is nil): what an export carries.
func (s *Store) AttachmentBytes(ctx context.Context, ids []string) (int64, error) {
	q := `SELECT COALESCE(SUM(size), 0) FROM blobs WHERE sha256 IN (SELECT a.sha256 FROM message_attachments ma
		JOIN attachments a ON a.id = ma.attachment_id JOIN messages m ON m.id = ma.message_id`
	args := make([]any, len(ids))
	if ids != nil {
		if len(ids) == 0 {
			return 0, nil
		}
		q += ` WHERE m.conversation_id IN (?` + strings.Repeat(", ?", len(ids)-1) + `)`
		for i, id := range ids {
			args[i] = id
		}
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, q+`)`, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("attachment bytes: %w", err)
	}
	return n, nil
}
