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
