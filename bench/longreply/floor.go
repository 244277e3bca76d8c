package main

import (
	"io"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm"
)

// floors is a bare net/http server in this process, on its own loopback
// listener, with the two floors a Wisp stream is measured against:
//
//   - POST /delta?n=N writes the reply of N words as bare delta frames
//     (`id: i` + `data: {"type":"token","text":"<chunk>"}`), a flush after
//     each, then a done frame with the fullText;
//   - POST /relay?n=N asks the fake model for the same reply over its OpenAI
//     protocol, decodes it with Wisp's model client (runtime/llm) and re-sends
//     each text delta the same way: the model side of Wisp's work, with
//     nothing persisted.
type floors struct {
	url   string
	srv   *benchkit.Server
	model llm.Provider
}

func startFloors(modelURL string, client *http.Client) (*floors, error) {
	p, err := llm.New(llm.Config{Kind: llm.ProviderOpenAI, BaseURL: modelURL, APIKey: "k", HTTPClient: client})
	if err != nil {
		return nil, err
	}
	f := &floors{model: p}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /delta", f.delta)
	mux.HandleFunc("POST /relay", f.relay)
	if f.srv, err = benchkit.Serve(mux); err != nil {
		return nil, err
	}
	f.url = f.srv.URL
	return f, nil
}

func (f *floors) stop() error { return f.srv.Stop() }

// deltaWriter writes bare delta frames, flushing each.
type deltaWriter struct {
	w   io.Writer
	rc  *http.ResponseController
	buf []byte
	seq int64
	err error
}

// startSSE reads the request body, as Wisp does, and sends the headers and a
// heartbeat comment as Wisp's first bytes are.
func startSSE(w http.ResponseWriter, r *http.Request) *deltaWriter {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	d := &deltaWriter{w: w, rc: http.NewResponseController(w), buf: make([]byte, 0, 4096)}
	d.buf = append(d.buf, ": heartbeat\n\n"...)
	d.flush()
	return d
}

// frame writes `id: <seq>\ndata: {"type":<typ>,"<key>":"<text>"}` and flushes.
// text must need no JSON escaping, which the vocabulary guarantees.
func (d *deltaWriter) frame(typ, key, text string) {
	if d.err != nil {
		return
	}
	d.seq++
	b := append(d.buf[:0], "id: "...)
	b = strconv.AppendInt(b, d.seq, 10)
	b = append(b, "\ndata: {\"type\":\""...)
	b = append(b, typ...)
	b = append(b, "\",\""...)
	b = append(b, key...)
	b = append(b, "\":\""...)
	b = append(b, text...)
	d.buf = append(b, "\"}\n\n"...)
	d.flush()
}

func (d *deltaWriter) flush() {
	if _, err := d.w.Write(d.buf); err != nil {
		d.err = err
		return
	}
	d.err = d.rc.Flush()
}

func lengthOf(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("n"))
	return max(n, 1)
}

func (f *floors) delta(w http.ResponseWriter, r *http.Request) {
	d := startSSE(w, r)
	var full []byte
	for _, c := range words(lengthOf(r)) {
		full = append(full, c...)
		d.frame("token", "text", c)
	}
	d.frame("done", "fullText", string(full))
}

func (f *floors) relay(w http.ResponseWriter, r *http.Request) {
	d := startSSE(w, r)
	var full []byte
	req := llm.Request{Model: "fake", Messages: []llm.Message{{Role: llm.RoleUser, Text: prompt(lengthOf(r))}}}
	_, err := f.model.Stream(r.Context(), req, func(delta llm.Delta) {
		if delta.Kind == llm.DeltaText {
			full = append(full, delta.Text...)
			d.frame("token", "text", delta.Text)
		}
	})
	if err != nil {
		d.frame("error", "message", "the model failed")
		return
	}
	d.frame("done", "fullText", string(full))
}
