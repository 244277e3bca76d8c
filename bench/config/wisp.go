package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
)

// wisp is a real Wisp App running in this process on 127.0.0.1, and one client
// connected to its /ws, read continuously.
type wisp struct {
	app     *app.App
	path    string         // its config file
	base    map[string]any // that file as Wisp wrote it at start
	running int            // the terminal.maxConcurrent its services run with
	conn    *websocket.Conn
	reader  *reader
}

func startWisp(ctx context.Context, stateDir string) (*wisp, error) {
	a, err := benchkit.StartApp(ctx, stateDir, nil)
	if err != nil {
		return nil, err
	}
	w := &wisp{app: a, path: filepath.Join(stateDir, "wisp.json")}
	if w.base, w.running, err = readBase(w.path); err != nil {
		_ = a.Stop()
		return nil, fmt.Errorf("wisp: %w", err)
	}
	wsURL := "ws" + strings.TrimPrefix(a.URL(), "http") + "/ws?clientId=config-bench"
	if w.conn, err = benchkit.DialReady(ctx, wsURL); err != nil {
		_ = a.Stop()
		return nil, fmt.Errorf("wisp: %w", err)
	}
	w.reader = newReader()
	go w.reader.readWS(w.conn)
	return w, nil
}

// readBase reads the config file Wisp created with its defaults, and the
// terminal run limit in it, which is the one Wisp runs with (no environment).
func readBase(path string) (map[string]any, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	var base map[string]any
	if err := json.Unmarshal(data, &base); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	term, _ := base["terminal"].(map[string]any)
	limit, ok := term["maxConcurrent"].(float64)
	if !ok || limit < 1 || limit > maxLimit || limit != float64(int(limit)) {
		return nil, 0, fmt.Errorf("%s: terminal.maxConcurrent is %v, want 1 to %d", path, term["maxConcurrent"], maxLimit)
	}
	return base, int(limit), nil
}

// wantReasons is the restart-required frame's reasons after a save of limit:
// the one restart-only setting that differs from what Wisp runs
// (config.Change.Reason).
func (w *wisp) wantReasons(limit int) []string {
	return []string{fmt.Sprintf("Terminal run limit changed: %d → %d", w.running, limit)}
}

func (w *wisp) side() *side {
	return &side{name: "wisp", path: w.path, base: w.base, reader: w.reader, want: w.wantReasons}
}

func (w *wisp) stop() {
	w.reader.close(func() {
		_ = w.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		_ = w.conn.Close()
	})
	_ = w.app.Stop()
}

// reader hands what a side's watcher saw to the sample waiting for it.
type reader struct {
	arrivals chan arrival
	done     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
}

// arrival is one thing a sample waits for: Wisp's restart-required frame read
// by the client, or the floor's fsnotify event for the file.
type arrival struct {
	at      time.Time // when it had been read
	reasons []string  // the frame's reasons (Wisp only)
	err     error     // the socket or the watch failed, or the frame is not JSON
}

func newReader() *reader {
	r := &reader{arrivals: make(chan arrival, 16), done: make(chan struct{})}
	r.wg.Add(1)
	return r
}

// readWS reads the socket until it fails or the reader is closed, and reports
// every restart-required frame. The time is taken as soon as a frame has been
// read, before it is decoded.
func (r *reader) readWS(c *websocket.Conn) {
	defer r.wg.Done()
	err := benchkit.ReadFrames(c, func(at time.Time, raw []byte) bool {
		var f struct {
			Type    string   `json:"type"`
			Reasons []string `json:"reasons"`
		}
		if err := json.Unmarshal(raw, &f); err != nil {
			return r.report(arrival{at: at, err: fmt.Errorf("frame is not JSON: %.200q", raw)})
		}
		if f.Type != "restart-required" {
			return true // status, config-changed
		}
		return r.report(arrival{at: at, reasons: f.Reasons})
	})
	if err != nil {
		r.report(arrival{err: err})
	}
}

// report hands an arrival to the sample; it gives up once the reader is closed.
func (r *reader) report(a arrival) bool {
	select {
	case r.arrivals <- a:
		return true
	case <-r.done:
		return false
	}
}

// close stops the reading goroutine: it marks the reader closed, runs unblock
// (which makes the goroutine's read fail) and waits for it.
func (r *reader) close(unblock func()) {
	r.once.Do(func() {
		close(r.done)
		unblock()
		r.wg.Wait()
	})
}
