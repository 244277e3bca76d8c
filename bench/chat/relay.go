package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/bench/benchkit"
)

// relay is the bare floor Wisp's stream is measured against: what any server
// that passes a model's reply on must do, and nothing else. It reads the
// client's message, asks the model with net/http, reads the model's SSE with
// bufio, decodes each chunk with encoding/json into a small struct, and writes
// each text delta to the client as an SSE frame shaped like Wisp's delta
// dialect (`{"type":"token","text":…}`, encoding/json again), flushing each,
// then a `done` frame with the whole text. Nothing is persisted, and no model
// SDK is used.
type relay struct {
	model  string // the model's base URL (…/v1)
	client *http.Client
}

func startRelay(modelURL string) (*benchkit.Server, error) {
	r := &relay{model: modelURL, client: &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 4}}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /stream", r.stream)
	return benchkit.Serve(mux)
}

type relayMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type relayRequest struct {
	Model    string         `json:"model"`
	Stream   bool           `json:"stream"`
	Messages []relayMessage `json:"messages"`
}

// relayChunk is what the relay reads of one of the model's chunks.
type relayChunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
	} `json:"choices"`
}

type relayFrame struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	FullText string `json:"fullText,omitempty"`
	Message  string `json:"message,omitempty"`
}

func (rl *relay) stream(w http.ResponseWriter, r *http.Request) {
	var in struct{ Text string }
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	body, _ := json.Marshal(relayRequest{Model: "fake", Stream: true, Messages: []relayMessage{{Role: "user", Content: in.Text}}})
	up, err := http.NewRequestWithContext(r.Context(), http.MethodPost, rl.model+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	up.Header.Set("Content-Type", "application/json")
	resp, err := rl.client.Do(up)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		http.Error(w, resp.Status, http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	out := &frameWriter{w: w, rc: http.NewResponseController(w)}
	var full []byte
	rd := bufio.NewReader(resp.Body)
	for {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			out.frame(relayFrame{Type: "error", Message: "the model's stream ended early"})
			return
		}
		data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data: "))
		if !ok {
			continue
		}
		if string(data) == "[DONE]" {
			break
		}
		var c relayChunk
		if err := json.Unmarshal(data, &c); err != nil {
			out.frame(relayFrame{Type: "error", Message: "the model sent bad JSON"})
			return
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != "" {
				full = append(full, ch.Delta.Content...)
				out.frame(relayFrame{Type: "token", Text: ch.Delta.Content})
			}
		}
	}
	out.frame(relayFrame{Type: "done", FullText: string(full)})
}

// frameWriter writes numbered SSE frames, flushing each.
type frameWriter struct {
	w   io.Writer
	rc  *http.ResponseController
	seq int64
	err error
}

func (f *frameWriter) frame(v relayFrame) {
	if f.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		f.err = err
		return
	}
	f.seq++
	b := make([]byte, 0, len(data)+32)
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, f.seq, 10)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	b = append(b, "\n\n"...)
	if _, f.err = f.w.Write(b); f.err == nil {
		f.err = f.rc.Flush()
	}
}
