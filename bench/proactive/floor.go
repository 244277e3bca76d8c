package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/internal/ids"
)

// dsnParams are app/store's connection settings (WAL, synchronous=NORMAL,
// immediate write transactions, foreign keys, busy timeout), repeated here
// because they are unexported there. Keep the two in step.
const dsnParams = "_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate&_synchronous=NORMAL"

// floorSchema is messages as app/store creates it (migrations 2 and 3: the
// table and its indexes), with a minimal parent table so that the foreign key
// is checked on every insert as in Wisp.
const floorSchema = `
CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY) STRICT;
CREATE TABLE IF NOT EXISTS messages (
	n                 INTEGER PRIMARY KEY,
	id                TEXT    NOT NULL UNIQUE,
	conversation_id   TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
	role              TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
	text              TEXT    NOT NULL,
	source            TEXT,
	run_id            TEXT,
	segments          TEXT,
	callback_history  TEXT,
	client_message_id TEXT,
	metadata          TEXT,
	created_at        INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS messages_conversation_n ON messages (conversation_id, n);
CREATE INDEX IF NOT EXISTS messages_role_created_at ON messages (role, created_at);
CREATE INDEX IF NOT EXISTS messages_source_created_at ON messages (source, created_at) WHERE source IS NOT NULL;`

const insertMessage = `INSERT INTO messages (id, conversation_id, role, text, source, metadata, created_at)
	VALUES (?, ?, 'assistant', ?, 'reminder', ?, ?)`

// floorStatus greets a floor client as Wisp greets its own, so that
// benchkit.DialReady knows it is connected.
var floorStatus = []byte(`{"type":"status"}`)

// floor is the physical minimum of a proactive message: one SQLite
// transaction inserting one message row into a database opened like Wisp's,
// and one WebSocket text frame, the size of Wisp's, written by a bare
// gorilla/websocket server in this process and read by a client over loopback.
type floor struct {
	db     *sql.DB
	convID string
	frame  []byte // what every sample sends: Wisp's probe proactive-message, byte for byte
	prefix string // what Wisp says before a reminder's text, so that rows are the size of Wisp's

	srv    *benchkit.Server
	server *websocket.Conn // the server's end; only samples write to it
	client *websocket.Conn
	reader *reader
}

// floorSample is one sample's clocks.
type floorSample struct {
	total  time.Duration // BEGIN (on a timer: the time it was set for) → the client has read the frame
	commit time.Duration // BEGIN → COMMIT returned
	late   time.Duration // on a timer: the time it was set for → it fired
}

func startFloor(ctx context.Context, dir string, frame []byte, prefix string) (*floor, error) {
	f := &floor{convID: ids.New(), frame: frame, prefix: prefix}
	if err := f.openDB(ctx, dir); err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	if err := f.serve(ctx); err != nil {
		f.stop()
		return nil, fmt.Errorf("floor: %w", err)
	}
	return f, nil
}

func (f *floor) openDB(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, "floor.db")
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+dsnParams)
	if err != nil {
		return err
	}
	f.db = db
	if _, err := db.ExecContext(ctx, floorSchema); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO conversations (id) VALUES (?)", f.convID); err != nil {
		return fmt.Errorf("conversation: %w", err)
	}
	return nil
}

// serve starts the WebSocket server on its own loopback listener and connects
// the client; the server's end of the connection is kept for the samples.
func (f *floor) serve(ctx context.Context) error {
	conns := make(chan *websocket.Conn, 1)
	up := websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024} // melody's sizes, as Wisp's hub
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		if err := c.WriteMessage(websocket.TextMessage, floorStatus); err != nil {
			_ = c.Close()
			return
		}
		go drain(c)
		conns <- c
	})
	var err error
	if f.srv, err = benchkit.Serve(mux); err != nil {
		return err
	}
	if f.client, err = benchkit.DialReady(ctx, "ws://"+f.srv.Addr+"/ws"); err != nil {
		return err
	}
	select {
	case f.server = <-conns:
	case <-time.After(collectTimeout):
		return fmt.Errorf("the server never got its connection")
	}
	f.reader = newReader(f.client)
	return nil
}

// drain reads the server's end until it fails, so that the client's close
// frame is answered.
func drain(c *websocket.Conn) {
	for {
		if _, _, err := c.NextReader(); err != nil {
			return
		}
	}
}

// sample saves one message row and sends one frame, and waits until the client
// has read it: at once (lead 0), timed from the BEGIN, or, like a reminder set
// lead ahead, when a timer set for the same kind of time fires, timed from that
// time.
func (f *floor) sample(ctx context.Context, seq int, lead time.Duration) (floorSample, error) {
	if err := ctx.Err(); err != nil {
		return floorSample{}, err
	}
	text := f.prefix + fmt.Sprintf("bench reminder %05d", seq)
	meta := `{"late":false,"reminderId":"` + ids.New() + `","source":"reminder"}`
	id := ids.New()
	_, due := dueAfter(time.Now(), lead)
	if lead > 0 {
		timer := time.NewTimer(time.Until(due))
		<-timer.C
	}
	start := time.Now()
	if err := f.insert(ctx, id, text, meta, start); err != nil {
		return floorSample{}, err
	}
	committed := time.Now()
	if err := f.server.WriteMessage(websocket.TextMessage, f.frame); err != nil {
		return floorSample{}, fmt.Errorf("write: %w", err)
	}
	a, err := f.reader.next("floor")
	if err != nil {
		return floorSample{}, err
	}
	if !bytes.Equal(a.raw, f.frame) {
		return floorSample{}, fmt.Errorf("got %.300s, want the frame sent", a.raw)
	}
	s := floorSample{total: a.at.Sub(start), commit: committed.Sub(start)}
	if lead > 0 {
		s.total, s.late = a.at.Sub(due), start.Sub(due)
	}
	return s, nil
}

// insert is the floor's one transaction.
func (f *floor) insert(ctx context.Context, id, text, meta string, now time.Time) error {
	tx, err := f.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, insertMessage, id, f.convID, text, meta, now.UnixMilli()); err != nil {
		return fmt.Errorf("insert: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (f *floor) stop() {
	if f.reader != nil {
		f.reader.close(func() { closeConn(f.client) })
	} else if f.client != nil {
		_ = f.client.Close()
	}
	if f.server != nil {
		_ = f.server.Close()
	}
	_ = f.srv.Stop()
	if f.db != nil {
		_ = f.db.Close()
	}
}
