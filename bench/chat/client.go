package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// seen is what the client saw of one SSE response, timed from just before the
// request was sent.
type seen struct {
	firstToken time.Duration // → first `{"type":"token"` frame
	final      time.Duration // → the done (or error) frame, or the end of the body
	tokens     int           // token frames
	frames     int           // data frames of any type
	lastID     int64         // the last `id:` line
	done       bool          // a done frame arrived
	fullText   string        // the done frame's fullText
	failure    string        // an error frame's message
	runID      string        // X-Wisp-Run-Id
}

var tokenPrefix = []byte(`{"type":"token"`)

// stream POSTs body to url and reads the SSE answer to its end. Token frames
// are only counted (a client that decodes every one would measure itself);
// other frames are decoded, the done frame for its fullText.
func stream(ctx context.Context, c *http.Client, url string, body []byte) (seen, error) {
	var s seen
	start := time.Now()
	resp, err := benchkit.OpenSSE(ctx, c, url, body)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	s.runID = resp.Header.Get("X-Wisp-Run-Id")
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if id, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
			if s.lastID, err = strconv.ParseInt(string(id), 10, 64); err != nil {
				return s, fmt.Errorf("bad id line %q", line)
			}
			continue
		}
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue // blank separator or a `:` comment
		}
		s.frames++
		if bytes.HasPrefix(data, tokenPrefix) { // Wisp writes token frames type first
			if s.tokens++; s.tokens == 1 {
				s.firstToken = time.Since(start)
			}
			continue
		}
		at := time.Since(start)
		if !bytes.Contains(data, []byte(`"type":"done"`)) && !bytes.Contains(data, []byte(`"type":"error"`)) {
			continue // another kind of frame, or not Wisp's dialect (the fake model's chunks)
		}
		var f struct{ Type, FullText, Message string }
		if err := json.Unmarshal(data, &f); err != nil {
			return s, fmt.Errorf("frame is not JSON: %.200q", data)
		}
		switch f.Type {
		case "done":
			s.final, s.done, s.fullText = at, true, f.FullText
		case "error":
			s.final, s.failure = at, f.Message
		}
	}
	if s.final == 0 {
		s.final = time.Since(start)
	}
	return s, sc.Err()
}
