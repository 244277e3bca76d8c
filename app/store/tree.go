package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The reads and writes of a conversation's tree beyond appending (messages.go): a
// page of the branch shown, the children of messages, moving to another branch,
// cutting a subtree. Each walks only the part of the tree it answers about (a
// bounded recursive walk by parent, or the (conversation_id, parent_id, n) index),
// never the whole conversation, and takes one statement whatever the length. A
// recursive step reads "FROM <walk> CROSS JOIN messages": the walk's row drives the
// index lookup (joined the other way round, SQLite may scan the messages for every
// step: a truncate of 10,000 messages took 8 s instead of 11 ms).

// ErrNotOnBranch reports a message that is in its conversation but not on the branch
// it shows.
var ErrNotOnBranch = errors.New("the message is not on the branch shown")

// PageQuery asks for a page of the branch a conversation shows: its newest Limit
// messages, or those just Before or After a message of it, or Around one (it in the
// page's middle). At most one of Before, After and Around is set.
type PageQuery struct {
	Before, After, Around string
	Limit                 int
}

// Page is a run of consecutive messages of the branch shown, oldest first.
type Page struct {
	Messages []Message
	// HasOlder and HasNewer say whether the branch goes on before and after the page.
	HasOlder, HasNewer bool
	// BranchLength is how many messages the whole branch has.
	BranchLength int
}

// BranchPage reads a page of the branch a conversation shows, walking up by parent
// through the page only (see walkStart), in one statement; a cursor must be on the
// branch (the walk meets it). ErrNotFound if the conversation or the cursor's
// message is unknown (or of another conversation), ErrNotOnBranch if the message is
// on another branch.
func (s *Store) BranchPage(ctx context.Context, conversationID string, q PageQuery) (Page, error) {
	if q.Limit <= 0 {
		return Page{}, fmt.Errorf("page of %s: the limit must be positive", conversationID)
	}
	// No transaction: the DSN makes every one a writer's (_txlock=immediate).
	tx := s.db
	var leaf sql.NullString
	var leafDepth sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT c.active_leaf_id, m.depth FROM conversations c
		LEFT JOIN messages m ON m.id = c.active_leaf_id WHERE c.id = ?`, conversationID).Scan(&leaf, &leafDepth)
	if err != nil {
		return Page{}, fmt.Errorf("page of %s: %w", conversationID, notFound(err))
	}
	if !leaf.Valid {
		if cursor := q.Before + q.After + q.Around; cursor != "" {
			return Page{}, fmt.Errorf("page of %s at %s: %w", conversationID, cursor, ErrNotOnBranch)
		}
		return Page{Messages: []Message{}}, nil
	}
	last := int(leafDepth.Int64)
	cursor, d := q.Before+q.After+q.Around, last
	if cursor != "" {
		if d, err = depthOf(ctx, tx, conversationID, cursor); err != nil {
			return Page{}, err
		}
	}
	lo, hi := pageBounds(q, d, last)
	start, err := walkStart(ctx, tx, conversationID, leaf.String, max(hi, d), last)
	if err != nil {
		return Page{}, err
	}
	// One walk up from there to the page's top (and to the cursor: the check that it
	// is on the branch); a cursor the walk did not meet comes first, at depth -1.
	rows, err := queryAll(ctx, tx, "load a page", scanMessage, `WITH RECURSIVE up(n, id, parent, depth) AS (
			SELECT n, id, parent_id, depth FROM messages WHERE id = ?2 AND conversation_id = ?1
			UNION ALL
			SELECT m.n, m.id, m.parent_id, m.depth FROM up CROSS JOIN messages m ON m.id = up.parent
			WHERE m.conversation_id = ?1 AND up.depth > ?3
		)
		SELECT `+messageColumns+` FROM messages WHERE n IN (SELECT n FROM up WHERE depth BETWEEN ?4 AND ?5)
		UNION ALL
		SELECT `+offBranchColumns+` FROM messages WHERE ?6 != '' AND id = ?6 AND NOT EXISTS (SELECT 1 FROM up WHERE id = ?6)
		ORDER BY depth`,
		conversationID, start, min(lo, d), lo, hi, cursor)
	if err != nil {
		return Page{}, err
	}
	page := Page{Messages: rows, BranchLength: last + 1, HasOlder: lo > 0, HasNewer: hi < last}
	if len(rows) > 0 && rows[0].Depth < 0 {
		return Page{}, fmt.Errorf("page of %s at %s: %w", conversationID, cursor, ErrNotOnBranch)
	}
	return page, nil
}

// walkStart is where a walk up the branch shown must start to reach depth from:
// the shallowest message at a depth from..last that is alone at its depth in the
// conversation (every branch as deep goes through it, so the one shown does too),
// else the leaf. In a conversation whose branches fork and end early that is the
// message at depth from itself, and a page costs its own length.
func walkStart(ctx context.Context, tx querier, conversationID, leaf string, from, last int) (string, error) {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE conversation_id = ?1 AND depth = (
			SELECT depth FROM messages WHERE conversation_id = ?1 AND depth BETWEEN ?2 AND ?3
			GROUP BY depth HAVING COUNT(*) = 1 ORDER BY depth LIMIT 1)`, conversationID, from, last).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return leaf, nil
	}
	if err != nil {
		return "", fmt.Errorf("start of a walk: %w", err)
	}
	return id, nil
}

// offBranchColumns read a message with depth -1: the mark of a cursor the walk did
// not meet.
var offBranchColumns = strings.TrimSuffix(messageColumns, "depth") + "-1"

// pageBounds is the range of depths [lo, hi] a page covers on a branch whose leaf is
// at depth last; d is the cursor's depth (the leaf's for the newest page). The range
// is empty (hi < lo) before the first message and after the last.
func pageBounds(q PageQuery, d, last int) (lo, hi int) {
	switch {
	case q.Before != "":
		lo, hi = d-q.Limit, d-1
	case q.After != "":
		lo, hi = d+1, d+q.Limit
	case q.Around != "":
		lo = d - q.Limit/2
		hi = lo + q.Limit - 1
		if hi > last {
			lo, hi = lo-(hi-last), last
		}
		if lo < 0 {
			lo, hi = 0, hi-lo
		}
	default:
		lo, hi = last-q.Limit+1, last
	}
	return max(lo, 0), min(hi, last)
}

func depthOf(ctx context.Context, q querier, conversationID, id string) (int, error) {
	var d int
	err := q.QueryRowContext(ctx, "SELECT depth FROM messages WHERE id = ? AND conversation_id = ?", id, conversationID).Scan(&d)
	if err != nil {
		return 0, fmt.Errorf("message %s of %s: %w", id, conversationID, notFound(err))
	}
	return d, nil
}

// Message returns one message of a conversation; ErrNotFound if it is not there.
func (s *Store) Message(ctx context.Context, conversationID, id string) (Message, error) {
	m, err := scanMessage(s.db.QueryRowContext(ctx,
		"SELECT "+messageColumns+" FROM messages WHERE id = ? AND conversation_id = ?", id, conversationID))
	if err != nil {
		return Message{}, fmt.Errorf("load message %s: %w", id, notFound(err))
	}
	return m, nil
}

// Children returns the ids of the children of each of parentIDs in a conversation,
// oldest first, keyed by parent; the key "" holds its first messages (the roots)
// when "" is among parentIDs. A parent without children has no key.
func (s *Store) Children(ctx context.Context, conversationID string, parentIDs []string) (map[string][]string, error) {
	ids, roots := []string{}, false
	for _, p := range parentIDs {
		if p == "" {
			roots = true
		} else {
			ids = append(ids, p)
		}
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("children: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT COALESCE(parent_id, ''), id FROM messages
		WHERE conversation_id = ?1 AND parent_id IN (SELECT value FROM json_each(?2))
		UNION ALL
		SELECT '', id FROM (SELECT id FROM messages WHERE ?3 AND conversation_id = ?1 AND parent_id IS NULL ORDER BY n)`,
		conversationID, string(list), roots)
	if err != nil {
		return nil, fmt.Errorf("children: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	type child struct{ parent, id string }
	for rows.Next() {
		var c child
		if err := rows.Scan(&c.parent, &c.id); err != nil {
			return nil, fmt.Errorf("children: %w", err)
		}
		out[c.parent] = append(out[c.parent], c.id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("children: %w", err)
	}
	return out, nil
}

// SwitchBranch makes the branch through messageID the one its conversation shows
// (see Tx.SwitchBranch) and returns the new leaf.
func (s *Store) SwitchBranch(ctx context.Context, conversationID, messageID string) (string, error) {
	var leaf string
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		leaf, err = tx.SwitchBranch(ctx, conversationID, messageID)
		return err
	})
	return leaf, err
}

// SwitchBranch makes the branch through messageID the one its conversation shows:
// when the leaf already descends from it, nothing changes; else the leaf becomes the
// newest leaf below it (from it down, the newest child at each step). It returns the
// leaf; ErrNotFound if messageID is not a message of the conversation.
func (t *Tx) SwitchBranch(ctx context.Context, conversationID, messageID string) (string, error) {
	if _, err := depthOf(ctx, t.tx, conversationID, messageID); err != nil {
		return "", fmt.Errorf("switch branch: %w", err)
	}
	var leaf sql.NullString
	if err := t.tx.QueryRowContext(ctx, "SELECT active_leaf_id FROM conversations WHERE id = ?",
		conversationID).Scan(&leaf); err != nil {
		return "", fmt.Errorf("switch branch: %w", notFound(err))
	}
	below, err := descendsTx(ctx, t.tx, leaf.String, messageID)
	if err != nil || below {
		return leaf.String, err
	}
	var newLeaf string
	err = t.tx.QueryRowContext(ctx, `WITH RECURSIVE down(id, k) AS (
			SELECT ?2, 0
			UNION ALL
			SELECT (SELECT c.id FROM messages c WHERE c.conversation_id = ?1 AND c.parent_id = down.id
				ORDER BY c.n DESC LIMIT 1), k + 1 FROM down WHERE down.id IS NOT NULL
		)
		SELECT id FROM down WHERE id IS NOT NULL ORDER BY k DESC LIMIT 1`, conversationID, messageID).Scan(&newLeaf)
	if err != nil {
		return "", fmt.Errorf("switch branch: %w", err)
	}
	return newLeaf, setLeafTx(ctx, t.tx, conversationID, newLeaf)
}

// AddUserTurn saves m as a child of m.ParentID ("" for a new first message), makes
// it the leaf and creates run r answering it, together: the start of an edited
// question. It returns m as saved. ErrNotFound if the conversation or the parent is
// not there.
func (t *Tx) AddUserTurn(ctx context.Context, m Message, r Run) (Message, error) {
	if err := insertMessageTx(ctx, t.tx, &m); err != nil {
		return Message{}, fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if err := touchConversationTx(ctx, t.tx, m.ConversationID, m.CreatedAt); err != nil {
		return Message{}, fmt.Errorf("add message %s: %w", m.ID, err)
	}
	if err := setLeafTx(ctx, t.tx, m.ConversationID, m.ID); err != nil {
		return Message{}, err
	}
	return m, t.CreateRun(ctx, r)
}

// CreateRun saves a new run (see Store.CreateRun).
func (t *Tx) CreateRun(ctx context.Context, r Run) error {
	return createRun(ctx, t.tx, r)
}

// TruncateMessages cuts the tree of a conversation at messageID: it deletes every
// message below it on every branch (and it too when inclusive), the runs whose user
// message or reply went (with their events, approvals and display messages), and
// the display messages of no run made after messageID (at its time too when
// inclusive). When
// the leaf was among the messages deleted or is messageID, the leaf becomes messageID,
// or its parent when inclusive (none for a first message); else it stays. It
// returns how many messages it deleted; ErrNotFound if messageID is not in that
// conversation.
func (s *Store) TruncateMessages(ctx context.Context, conversationID, messageID string, inclusive bool) (int, error) {
	var deleted int
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		deleted, err = truncateTx(ctx, tx.tx, conversationID, messageID, inclusive)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("truncate messages: %w", err)
	}
	return deleted, nil
}

func truncateTx(ctx context.Context, tx *sql.Tx, conversationID, messageID string, inclusive bool) (int, error) {
	var parent, leaf sql.NullString
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT m.parent_id, m.created_at, c.active_leaf_id FROM messages m
		JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND m.conversation_id = ?`,
		messageID, conversationID).Scan(&parent, &at, &leaf)
	if err != nil {
		return 0, fmt.Errorf("at message %s: %w", messageID, notFound(err))
	}
	below, err := descendsTx(ctx, tx, leaf.String, messageID)
	if err != nil {
		return 0, err
	}
	// The subtree, as the numbers of its rows (its root included only when it goes).
	var doomed, runs string
	err = tx.QueryRowContext(ctx, `WITH RECURSIVE sub(n, id, run_id) AS (
			SELECT n, id, run_id FROM messages WHERE id = ?2 AND conversation_id = ?1
			UNION ALL
			SELECT m.n, m.id, m.run_id FROM sub CROSS JOIN messages m ON m.conversation_id = ?1 AND m.parent_id = sub.id
		), gone AS (SELECT * FROM sub WHERE ?3 OR id != ?2)
		SELECT (SELECT json_group_array(n) FROM gone),
			(SELECT json_group_array(id) FROM (
				SELECT run_id AS id FROM gone WHERE run_id IS NOT NULL
				UNION SELECT r.id FROM runs r WHERE r.conversation_id = ?1 AND r.user_message_id IN (SELECT id FROM gone)))`,
		conversationID, messageID, inclusive).Scan(&doomed, &runs)
	if err != nil {
		return 0, fmt.Errorf("find the subtree of %s: %w", messageID, err)
	}
	// A display message of no run (a proactive one) goes by time, as before the tree.
	if _, err := tx.ExecContext(ctx, `DELETE FROM display_messages WHERE conversation_id = ?1
		AND (run_id IN (SELECT value FROM json_each(?2))
			OR (run_id IS NULL AND (created_at > ?3 OR (?4 AND created_at = ?3))))`,
		conversationID, runs, at, inclusive); err != nil {
		return 0, fmt.Errorf("delete display messages: %w", err)
	}
	// Events and approvals go with their run (ON DELETE CASCADE).
	if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE conversation_id = ?1
		AND id IN (SELECT value FROM json_each(?2))`, conversationID, runs); err != nil {
		return 0, fmt.Errorf("delete runs: %w", err)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE n IN (SELECT value FROM json_each(?))", doomed)
	if err != nil {
		return 0, fmt.Errorf("delete messages: %w", err)
	}
	deleted, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if below {
		newLeaf := messageID
		if inclusive {
			newLeaf = parent.String
		}
		if _, err := tx.ExecContext(ctx, "UPDATE conversations SET active_leaf_id = ? WHERE id = ?",
			optText(newLeaf), conversationID); err != nil {
			return 0, fmt.Errorf("move the leaf: %w", err)
		}
	}
	return int(deleted), nil
}

// RunDisplayMessages returns the display messages of a conversation's runs runIDs,
// oldest first: those a page of messages shows.
func (s *Store) RunDisplayMessages(ctx context.Context, conversationID string, runIDs []string) ([]DisplayMessage, error) {
	if len(runIDs) == 0 {
		return []DisplayMessage{}, nil
	}
	list, err := json.Marshal(runIDs)
	if err != nil {
		return nil, fmt.Errorf("display messages of runs: %w", err)
	}
	return queryAll(ctx, s.db, "load display messages of runs", scanDisplayMessage,
		"SELECT "+displayMessageColumns+` FROM display_messages
		WHERE run_id IN (SELECT value FROM json_each(?2)) AND conversation_id = ?1 ORDER BY n`,
		conversationID, string(list))
}

// Descends reports whether message id is ancestor or below it, walking up from id no
// higher than ancestor's depth; false when either is "".
func (s *Store) Descends(ctx context.Context, id, ancestor string) (bool, error) {
	return descendsTx(ctx, s.db, id, ancestor)
}
