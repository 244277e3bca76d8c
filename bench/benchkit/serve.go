package benchkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Server is an HTTP server a driver runs in its own process, on a loopback
// listener of its own: the floors Wisp is measured against.
type Server struct {
	Addr string // host:port
	URL  string // http://host:port
	srv  *http.Server
}

// Serve starts h on a free port of 127.0.0.1.
func Serve(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	s.URL = "http://" + s.Addr
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Stop shuts the server down, waiting up to 5 s for requests in flight. A nil
// Server is already stopped.
func (s *Server) Stop() error {
	if s == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

// OpenSSE POSTs the JSON body to url asking for an event stream and returns the
// response once it answered 200; any other status is an error carrying the start
// of the body. The caller reads and closes the body.
func OpenSSE(ctx context.Context, c *http.Client, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return nil, fmt.Errorf("POST %s: status %d: %s", url, resp.StatusCode, bytes.TrimSpace(msg))
	}
	return resp, nil
}

// SSEUntil reads data frames of an SSE stream, as JSON objects, until one matches;
// the stream ending first is an error.
func SSEUntil(rd *bufio.Reader, match func(map[string]any) bool) (map[string]any, error) {
	for {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("the stream ended first")
			}
			return nil, err
		}
		data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\n"), []byte("data: "))
		if !ok {
			continue
		}
		var f map[string]any
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("frame is not JSON: %s", data)
		}
		if match(f) {
			return f, nil
		}
	}
}
