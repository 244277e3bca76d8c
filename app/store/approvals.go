package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Approval statuses and decisions.
const (
	ApprovalPending   = "pending"
	ApprovalApproved  = "approved"
	ApprovalDenied    = "denied"
	ApprovalCancelled = "cancelled"

	DecisionApprove       = "approve"
	DecisionApproveAlways = "approve_always"
	DecisionDeny          = "deny"
)

// ErrDecided reports a decision on an approval that is no longer pending.
var ErrDecided = errors.New("already decided")

// Approval is the user's yes or no to one action call of a run. Request is what the
// user is asked about (the caller's JSON; the store does not read it); Binding is
// the caller's hash of what the call does, which it checks the approval against.
type Approval struct {
	ID, RunID, ConversationID, CallID, ToolName string
	Request                                     json.RawMessage
	Binding                                     string
	Status, Decision, Note                      string
	// EditedText is the user's edit of what a memory approval proposed, when they
	// approved it edited ("" otherwise).
	EditedText           string
	CreatedAt, DecidedAt time.Time
	// MessageID is the user message its run answers (read only: from the run).
	MessageID string
}

// approvalColumns read an approval with its run's user message.
const approvalColumns = "id, run_id, conversation_id, call_id, tool_name, request, binding, status, decision, note, created_at, decided_at, " +
	"coalesce(edited_text, ''), " +
	"(SELECT r.user_message_id FROM runs r WHERE r.id = run_id)"

// AddApproval saves a pending approval. ErrNotFound if its run does not exist.
func (s *Store) AddApproval(ctx context.Context, a Approval) error {
	if err := requireTime("created at", a.CreatedAt); err != nil {
		return fmt.Errorf("add approval %s: %w", a.ID, err)
	}
	req, err := jsonColumn("request", a.Request)
	if err != nil || req == nil {
		return fmt.Errorf("add approval %s: the request must be JSON", a.ID)
	}
	_, err = s.db.ExecContext(ctx, "INSERT INTO approvals (id, run_id, conversation_id, call_id, tool_name, request, binding, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
		a.ID, a.RunID, optText(a.ConversationID), a.CallID, a.ToolName, req, a.Binding, a.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("add approval %s: %w", a.ID, notFound(err))
	}
	return nil
}

// Approval returns one approval, or ErrNotFound.
func (s *Store) Approval(ctx context.Context, id string) (Approval, error) {
	a, err := scanApproval(s.db.QueryRowContext(ctx, "SELECT "+approvalColumns+" FROM approvals WHERE id = ?", id))
	if err != nil {
		return Approval{}, fmt.Errorf("load approval %s: %w", id, notFound(err))
	}
	return a, nil
}

// ApprovalOf returns the approval of one call of a run, or ErrNotFound.
func (s *Store) ApprovalOf(ctx context.Context, runID, callID string) (Approval, error) {
	a, err := scanApproval(s.db.QueryRowContext(ctx,
		"SELECT "+approvalColumns+" FROM approvals WHERE run_id = ? AND call_id = ?", runID, callID))
	if err != nil {
		return Approval{}, fmt.Errorf("load approval of %s/%s: %w", runID, callID, notFound(err))
	}
	return a, nil
}

// PendingApprovals lists the approvals still waiting for the user, oldest first.
func (s *Store) PendingApprovals(ctx context.Context) ([]Approval, error) {
	return queryAll(ctx, s.db, "list pending approvals", scanApproval,
		"SELECT "+approvalColumns+" FROM approvals WHERE status = 'pending' ORDER BY created_at, id")
}

// Grant kinds.
const (
	GrantShell = "shell" // a base command
	GrantMCP   = "mcp"   // an MCP server's tool: "server.tool"
	// The hands' grants: a site (web), a folder of files.roots (file_read, file_edit).
	GrantWeb      = "web"
	GrantFileRead = "file_read"
	GrantFileEdit = "file_edit"
)

// DecideApproval records a decision on a pending approval, compare-and-swap: exactly
// one decision wins. A later one gets ErrDecided with the approval as it is.
// approve_always also saves grants of kind for bases, in the same transaction.
func (s *Store) DecideApproval(ctx context.Context, id, decision, note string, at time.Time, kind string, bases []string) (Approval, error) {
	return s.decideApproval(ctx, id, decision, note, nil, at, kind, bases)
}

// DecideApprovalEdited approves a pending approval with the user's edit of what it
// proposed (a memory's text), compare-and-swap like DecideApproval.
func (s *Store) DecideApprovalEdited(ctx context.Context, id, note, edited string, at time.Time) (Approval, error) {
	return s.decideApproval(ctx, id, DecisionApprove, note, &edited, at, "", nil)
}

func (s *Store) decideApproval(ctx context.Context, id, decision, note string, edited *string, at time.Time, kind string, bases []string) (Approval, error) {
	status := ApprovalApproved
	switch decision {
	case DecisionApprove, DecisionApproveAlways:
	case DecisionDeny:
		status = ApprovalDenied
	default:
		return Approval{}, fmt.Errorf("decide approval %s: unknown decision %q", id, decision)
	}
	var out Approval
	err := s.InTx(ctx, func(t *Tx) error {
		tx := t.tx
		res, err := tx.ExecContext(ctx,
			"UPDATE approvals SET status = ?, decision = ?, note = ?, edited_text = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
			status, decision, note, edited, at.UnixMilli(), id)
		if err != nil {
			return err
		}
		a, err := scanApproval(tx.QueryRowContext(ctx, "SELECT "+approvalColumns+" FROM approvals WHERE id = ?", id))
		if err != nil {
			return notFound(err)
		}
		out = a
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrDecided
		}
		if decision == DecisionApproveAlways {
			return addGrantsTx(ctx, tx, kind, bases, at)
		}
		return nil
	})
	if err != nil {
		return out, fmt.Errorf("decide approval %s: %w", id, err)
	}
	return out, nil
}

// CancelApproval ends a pending approval whose run was stopped; false when it was
// not pending.
func (s *Store) CancelApproval(ctx context.Context, id string, at time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx,
		"UPDATE approvals SET status = 'cancelled', decided_at = ? WHERE id = ? AND status = 'pending'", at.UnixMilli(), id)
	if err != nil {
		return false, fmt.Errorf("cancel approval %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// UnheardDecisions lists the approvals a paused run waits on that are no longer
// pending: decided or cancelled by a process that ended before the run heard of it.
// A run waits on its newest approval (its calls are asked one at a time).
func (s *Store) UnheardDecisions(ctx context.Context) ([]Approval, error) {
	return queryAll(ctx, s.db, "list decisions no run heard", scanApproval,
		"SELECT "+approvalColumns+" FROM approvals a WHERE status <> 'pending'"+
			" AND run_id IN (SELECT id FROM runs WHERE status = 'paused')"+
			" AND rowid = (SELECT MAX(rowid) FROM approvals b WHERE b.run_id = a.run_id)"+
			" ORDER BY created_at, id")
}

// CancelOrphanedApprovals cancels the pending approvals whose run is over (it ended
// before it could pause for them): nobody will act on a decision of theirs. It
// returns the approvals it cancelled.
func (s *Store) CancelOrphanedApprovals(ctx context.Context, at time.Time) ([]Approval, error) {
	return queryAll(ctx, s.db, "cancel approvals of runs that are over", scanApproval,
		"UPDATE approvals SET status = 'cancelled', decided_at = ? WHERE status = 'pending'"+
			" AND run_id NOT IN (SELECT id FROM runs WHERE status IN ('active', 'paused'))"+
			" RETURNING "+approvalColumns, at.UnixMilli())
}

func scanApproval(r scanner) (Approval, error) {
	var a Approval
	var conv, decision sql.NullString
	var req string
	var created int64
	var decided sql.NullInt64
	var message sql.NullString
	if err := r.Scan(&a.ID, &a.RunID, &conv, &a.CallID, &a.ToolName, &req, &a.Binding, &a.Status, &decision, &a.Note, &created, &decided, &a.EditedText, &message); err != nil {
		return Approval{}, err
	}
	a.ConversationID, a.Decision, a.Request, a.MessageID = conv.String, decision.String, json.RawMessage(req), message.String
	a.CreatedAt, a.DecidedAt = time.UnixMilli(created), fromOptMillis(decided)
	return a, nil
}

// Grant lets the agent run one base command (or call one MCP tool) without asking.
type Grant struct {
	ID, Kind, Base string
	CreatedAt      time.Time
}

// Grants lists every grant, by kind and base.
func (s *Store) Grants(ctx context.Context) ([]Grant, error) {
	return queryAll(ctx, s.db, "list grants", scanGrant, "SELECT id, kind, base, created_at FROM grants ORDER BY kind, base")
}

// DeleteGrant revokes a grant; ErrNotFound if there is none.
func (s *Store) DeleteGrant(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM grants WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete grant %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("delete grant %s: %w", id, ErrNotFound)
	}
	return nil
}

// AddGrants grants each base of kind, as an approve_always does (a base granted
// already keeps its grant).
func (s *Store) AddGrants(ctx context.Context, kind string, bases []string, at time.Time) error {
	return s.InTx(ctx, func(t *Tx) error { return addGrantsTx(ctx, t.tx, kind, bases, at) })
}

// addGrantsTx grants each base of kind (a base granted already keeps its grant).
func addGrantsTx(ctx context.Context, tx *sql.Tx, kind string, bases []string, at time.Time) error {
	for _, b := range bases {
		if _, err := tx.ExecContext(ctx, "INSERT INTO grants (id, kind, base, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, base) DO NOTHING",
			newGrantID(), kind, b, at.UnixMilli()); err != nil {
			return fmt.Errorf("grant %q: %w", b, err)
		}
	}
	return nil
}

// newGrantID is a random id (the store imports nothing of Wisp's id helpers).
func newGrantID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "gr_" + hex.EncodeToString(b[:])
}

func scanGrant(r scanner) (Grant, error) {
	var g Grant
	var created int64
	if err := r.Scan(&g.ID, &g.Kind, &g.Base, &created); err != nil {
		return Grant{}, err
	}
	g.CreatedAt = time.UnixMilli(created)
	return g, nil
}
