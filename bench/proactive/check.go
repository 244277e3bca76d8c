package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3" // the driver app/store uses
)

// checkListed checks GET /api/reminders after the last sample: nothing pending,
// and every reminder it shows (the most recently delivered ones) delivered, on
// time, with the message its frame named.
func (w *wisp) checkListed(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.app.URL()+"/api/reminders", nil)
	if err != nil {
		return err
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.300s", resp.StatusCode, data)
	}
	var out struct{ Reminders []reminder }
	if err := json.Unmarshal(data, &out); err != nil {
		return err
	}
	if len(out.Reminders) == 0 {
		return fmt.Errorf("no reminders listed")
	}
	for _, r := range out.Reminders {
		msgID, ok := w.delivered[r.ID]
		switch {
		case !ok:
			return fmt.Errorf("lists %q, which no sample created", r.ID)
		case r.Status != "delivered" || r.Late || r.MessageID != msgID:
			return fmt.Errorf("lists %+v, want delivered on time with message %s", r, msgID)
		}
	}
	w.listed = len(out.Reminders)
	return nil
}

// checkDB reads wisp.db after Wisp stopped: every reminder created is delivered,
// on time, as the message its frame named, in the reminders' conversation, and
// there is exactly one message and one display row per reminder. It returns how
// many reminders it checked.
func (w *wisp) checkDB(ctx context.Context) (int, error) {
	path := filepath.Join(w.dir, "wisp.db")
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT r.id, r.delivered_at IS NOT NULL, r.late, coalesce(r.message_id, ''),
		coalesce(m.conversation_id, ''), coalesce(m.source, '')
		FROM reminders r LEFT JOIN messages m ON m.id = r.message_id`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id, msgID, conv, source string
		var delivered, late bool
		if err := rows.Scan(&id, &delivered, &late, &msgID, &conv, &source); err != nil {
			return 0, err
		}
		want, ok := w.delivered[id]
		if !ok || !delivered || late || msgID != want || conv != w.convID || source != "reminder" {
			return 0, fmt.Errorf("reminder %s: delivered %v, late %v, message %q in conversation %q with source %q; want its message %q in %q",
				id, delivered, late, msgID, conv, source, want, w.convID)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if n != len(w.delivered) {
		return 0, fmt.Errorf("%d reminders stored, %d created", n, len(w.delivered))
	}
	var messages, displays int
	var unread bool
	err = db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM messages WHERE conversation_id = ?1),
		(SELECT count(*) FROM display_messages WHERE conversation_id = ?1),
		(SELECT unread FROM conversations WHERE id = ?1)`, w.convID).Scan(&messages, &displays, &unread)
	if err != nil {
		return 0, err
	}
	if messages != n || displays != n || !unread {
		return 0, fmt.Errorf("the reminders' conversation has %d messages and %d display rows for %d reminders (unread %v)", messages, displays, n, unread)
	}
	return n, nil
}
