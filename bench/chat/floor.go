package main

import (
	"io"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/bench/benchkit"
)

// floorServer is the physical floor for the SSE figures: a bare net/http
// server in this process, on its own listener, that writes SSE frames with a
// flush after each and does nothing else (no database, no model).
type floorServer struct {
	url  string
	srv  *benchkit.Server
	long []string // the chunks of the long reply, JSON-safe as they are
}

func startFloor(long []string) (*floorServer, error) {
	f := &floorServer{long: long}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /first", f.first)
	mux.HandleFunc("POST /stream", f.stream)
	var err error
	if f.srv, err = benchkit.Serve(mux); err != nil {
		return nil, err
	}
	f.url = f.srv.URL
	return f, nil
}

func (f *floorServer) stop() error { return f.srv.Stop() }

// startSSE reads the request body, as Wisp does, and sends the headers.
func startSSE(w http.ResponseWriter, r *http.Request) *http.ResponseController {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	return http.NewResponseController(w)
}

// first answers with one token frame, flushed.
func (f *floorServer) first(w http.ResponseWriter, r *http.Request) {
	rc := startSSE(w, r)
	_, _ = io.WriteString(w, "id: 1\ndata: {\"type\":\"token\",\"text\":\"Hello\",\"fullText\":\"Hello\"}\n\n")
	_ = rc.Flush()
}

// stream writes the long reply as Wisp's dialect does, one token frame per
// chunk carrying the text so far, then a done frame, flushing every frame.
func (f *floorServer) stream(w http.ResponseWriter, r *http.Request) {
	rc := startSSE(w, r)
	var full, b []byte
	for i, c := range f.long {
		full = append(full, c...)
		b = append(b[:0], "id: "...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, "\ndata: {\"type\":\"token\",\"text\":\""...)
		b = append(b, c...)
		b = append(b, "\",\"fullText\":\""...)
		b = append(b, full...)
		b = append(b, "\"}\n\n"...)
		if _, err := w.Write(b); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
	b = append(b[:0], "id: "...)
	b = strconv.AppendInt(b, int64(len(f.long)+1), 10)
	b = append(b, "\ndata: {\"type\":\"done\",\"fullText\":\""...)
	b = append(b, full...)
	b = append(b, "\"}\n\n"...)
	_, _ = w.Write(b)
	_ = rc.Flush()
}
