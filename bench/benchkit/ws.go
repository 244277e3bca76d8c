package benchkit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gorilla/websocket"
)

// DialReady connects a WebSocket client to url and returns once its first status
// frame came (from then on the server broadcasts to it).
func DialReady(ctx context.Context, url string) (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	c, resp, err := d.DialContext(ctx, url, http.Header{})
	if err != nil {
		if resp != nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
			return nil, fmt.Errorf("dial %s: %w (status %d: %s)", url, err, resp.StatusCode, bytes.TrimSpace(body))
		}
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var f struct{ Type string }
		if err := c.ReadJSON(&f); err != nil {
			c.Close()
			return nil, fmt.Errorf("waiting for the status frame: %w", err)
		}
		if f.Type == "status" {
			_ = c.SetReadDeadline(time.Time{})
			return c, nil
		}
	}
}

// ReadFrames reads c's text frames until reading fails or each returns false, and
// returns the read error (nil when each stopped it). at is taken as soon as a whole
// frame has been read, before anything decodes it; frame is reused for the next
// one, so each must copy what it keeps.
func ReadFrames(c *websocket.Conn, each func(at time.Time, frame []byte) bool) error {
	var buf bytes.Buffer
	for {
		_, rd, err := c.NextReader()
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(rd)
		}
		if err != nil {
			return err
		}
		if !each(time.Now(), buf.Bytes()) {
			return nil
		}
	}
}
