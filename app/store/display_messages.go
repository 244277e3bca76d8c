package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// DisplayMessage is one bubble of a conversation as the UI shows it: text, thinking,
// a tool call with its status, a tool result, an error or a notification.
type DisplayMessage struct {
	ID, ConversationID, RunID, MessageType, ContentType string

	Content            json.RawMessage // required
	Status, ToolCallID string
	Metadata           json.RawMessage // nil when absent
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

const displayMessageColumns = "id, conversation_id, run_id, message_type, content_type, content, status, tool_call_id, metadata, created_at, updated_at"

// SaveDisplayMessage saves a display message and returns it as stored. Saving an id
// again (within the same conversation) replaces everything but its place and
// CreatedAt. A zero UpdatedAt is taken to be CreatedAt. ErrNotFound if the
// conversation does not exist.
func (s *Store) SaveDisplayMessage(ctx context.Context, d DisplayMessage) (DisplayMessage, error) {
	return saveDisplayMessage(ctx, s.db, d)
}

func saveDisplayMessage(ctx context.Context, q querier, d DisplayMessage) (DisplayMessage, error) {
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = d.CreatedAt
	}
	if err := requireTime("created at", d.CreatedAt); err != nil {
		return DisplayMessage{}, fmt.Errorf("save display message %s: %w", d.ID, err)
	}
	if len(d.Content) == 0 {
		return DisplayMessage{}, fmt.Errorf("save display message %s: content is required", d.ID)
	}
	content, err := jsonColumn("content", d.Content)
	if err != nil {
		return DisplayMessage{}, fmt.Errorf("save display message %s: %w", d.ID, err)
	}
	meta, err := jsonColumn("metadata", d.Metadata)
	if err != nil {
		return DisplayMessage{}, fmt.Errorf("save display message %s: %w", d.ID, err)
	}
	row := q.QueryRowContext(ctx, "INSERT INTO display_messages ("+displayMessageColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET run_id = excluded.run_id, message_type = excluded.message_type,
			content_type = excluded.content_type, content = excluded.content, status = excluded.status,
			tool_call_id = excluded.tool_call_id, metadata = excluded.metadata, updated_at = excluded.updated_at
		WHERE conversation_id = excluded.conversation_id
		RETURNING `+displayMessageColumns,
		d.ID, d.ConversationID, optText(d.RunID), d.MessageType, d.ContentType, content,
		optText(d.Status), optText(d.ToolCallID), meta, d.CreatedAt.UnixMilli(), d.UpdatedAt.UnixMilli())
	saved, err := scanDisplayMessage(row)
	if errors.Is(err, sql.ErrNoRows) {
		return DisplayMessage{}, fmt.Errorf("save display message %s: the id belongs to another conversation", d.ID)
	}
	if err != nil {
		return DisplayMessage{}, fmt.Errorf("save display message %s: %w", d.ID, notFound(err))
	}
	return saved, nil
}

// UpdateToolStatus sets the status of the tool_call display message of a tool call of
// run runID (the latest, should the id repeat in the run), replaces its content when
// content is not nil, moves its UpdatedAt forward to at, and returns it; ErrNotFound
// if there is none. Call ids are only unique within a run: servers that send none
// get call_0, call_1… every time, and an import brings other runs' rows.
func (s *Store) UpdateToolStatus(ctx context.Context, runID, toolCallID, status string, content json.RawMessage, at time.Time) (DisplayMessage, error) {
	newContent, err := jsonColumn("content", content)
	if err != nil {
		return DisplayMessage{}, fmt.Errorf("update tool call %s: %w", toolCallID, err)
	}
	row := s.db.QueryRowContext(ctx, `UPDATE display_messages
		SET status = ?, content = COALESCE(?, content), updated_at = MAX(updated_at, ?)
		WHERE n = (SELECT n FROM display_messages
			WHERE tool_call_id = ? AND run_id = ? AND content_type = 'tool_call' ORDER BY n DESC LIMIT 1)
		RETURNING `+displayMessageColumns,
		optText(status), newContent, at.UnixMilli(), toolCallID, runID)
	d, err := scanDisplayMessage(row)
	if err != nil {
		return DisplayMessage{}, fmt.Errorf("update tool call %s: %w", toolCallID, notFound(err))
	}
	return d, nil
}

// DisplayMessages returns a conversation's last limit display messages, oldest
// first; limit <= 0 returns them all. An unknown conversation has none.
func (s *Store) DisplayMessages(ctx context.Context, conversationID string, limit int) ([]DisplayMessage, error) {
	return queryAll(ctx, s.db, "load display messages", scanDisplayMessage,
		"SELECT "+displayMessageColumns+" FROM (SELECT n, "+displayMessageColumns+" FROM display_messages"+
			" WHERE conversation_id = ? ORDER BY n DESC LIMIT ?) ORDER BY n",
		conversationID, sqlLimit(limit))
}

func scanDisplayMessage(r scanner) (DisplayMessage, error) {
	var d DisplayMessage
	var runID, status, toolCallID sql.NullString
	var content, meta []byte
	var created, updated int64
	if err := r.Scan(&d.ID, &d.ConversationID, &runID, &d.MessageType, &d.ContentType, &content,
		&status, &toolCallID, &meta, &created, &updated); err != nil {
		return DisplayMessage{}, err
	}
	d.RunID, d.Status, d.ToolCallID = runID.String, status.String, toolCallID.String
	d.Content, d.Metadata = content, meta
	d.CreatedAt, d.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
	return d, nil
}
