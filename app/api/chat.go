package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

type chatRequest struct {
	Text            string          `json:"text"`
	ClientMessageID string          `json:"clientMessageId"`
	Metadata        json.RawMessage `json:"metadata"`
	// Attachments are ids from POST /api/attachments; absent (nil) on an edit keeps
	// the edited message's.
	Attachments *[]string `json:"attachments"`
	// Images is an old field, refused: attachments replaced it.
	Images []json.RawMessage `json:"images"`
}

func (s *Server) startRun(w http.ResponseWriter, r *http.Request) (*chat.Run, error) {
	in, err := sendInputOf(w, r)
	if err != nil {
		return nil, err
	}
	return s.chat.Send(r.Context(), r.PathValue("id"), in)
}

// sendInputOf reads a user message's body (a send's or an edit's).
func sendInputOf(w http.ResponseWriter, r *http.Request) (chat.SendInput, error) {
	var req chatRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return chat.SendInput{}, err
	}
	if len(req.Images) > 0 {
		return chat.SendInput{}, Errorf(http.StatusBadRequest,
			"images is not a field: upload each file with POST /api/attachments and list their ids in attachments")
	}
	if len(req.ClientMessageID) > 128 {
		return chat.SendInput{}, Errorf(http.StatusBadRequest, "clientMessageId is longer than 128 characters")
	}
	in := chat.SendInput{Text: req.Text, ClientMessageID: req.ClientMessageID, Metadata: req.Metadata}
	if req.Attachments != nil {
		in.Attachments = append([]string{}, *req.Attachments...)
	}
	return in, nil
}

// sendMessage answers once the run has ended. If the client leaves first the run
// goes on and its reply is saved.
func (s *Server) sendMessage(w http.ResponseWriter, r *http.Request) error {
	run, err := s.startRun(w, r)
	if err != nil {
		return err
	}
	return s.answerRun(w, r, run)
}

// answerRun writes a run's reply once it has ended (Wisp's and milady's answer).
func (s *Server) answerRun(w http.ResponseWriter, r *http.Request, run *chat.Run) error {
	out, err := run.Wait(r.Context())
	if err != nil {
		return nil // the client went away
	}
	if out.Status == chat.StatusFailed {
		return Errorf(http.StatusBadGateway, "%s", out.Error)
	}
	return writeJSON(w, http.StatusOK, wire.SendResult{
		Text: out.FullText, AgentName: s.chat.AgentName(), RunID: run.ID, MessageID: out.MessageID,
		Usage: wire.NewUsage(out.Usage.InputTokens, out.Usage.OutputTokens, out.Usage.CacheReadTokens, out.Usage.CacheWriteTokens), ActionCallbackHistory: jsonlist.NonNil(out.History), Status: wire.RunStatus(out.Status), Error: out.Error,
	})
}

// streamMessage starts a run and streams it as SSE; X-Wisp-Message-Id is the user
// message it saved.
func (s *Server) streamMessage(w http.ResponseWriter, r *http.Request) error {
	enc, err := encoderFor(r)
	if err != nil {
		return err
	}
	run, err := s.startRun(w, r)
	if err != nil {
		return err
	}
	w.Header().Set("X-Wisp-Run-Id", run.ID)
	w.Header().Set("X-Wisp-Message-Id", run.UserMessageID)
	return s.streamRun(w, r, run.ID, 0, enc)
}

// editMessage starts a new branch beside a user message and streams its reply as
// streamMessage does; X-Wisp-Message-Id is the new user message.
func (s *Server) editMessage(w http.ResponseWriter, r *http.Request) error {
	enc, err := encoderFor(r)
	if err != nil {
		return err
	}
	in, err := sendInputOf(w, r)
	if err != nil {
		return err
	}
	run, err := s.chat.Edit(r.Context(), r.PathValue("id"), r.PathValue("messageId"), in)
	if err != nil {
		return err
	}
	w.Header().Set("X-Wisp-Run-Id", run.ID)
	w.Header().Set("X-Wisp-Message-Id", run.UserMessageID)
	return s.streamRun(w, r, run.ID, 0, enc)
}

// regenerateMessage answers again what an assistant message answered and streams
// the reply as streamMessage does; X-Wisp-Message-Id is the reply's id.
func (s *Server) regenerateMessage(w http.ResponseWriter, r *http.Request) error {
	enc, err := encoderFor(r)
	if err != nil {
		return err
	}
	if r.ContentLength != 0 && r.Body != http.NoBody {
		var empty struct{}
		if err := decodeJSON(w, r, &empty); err != nil {
			return err
		}
	}
	run, err := s.chat.Regenerate(r.Context(), r.PathValue("id"), r.PathValue("messageId"))
	if err != nil {
		return err
	}
	w.Header().Set("X-Wisp-Run-Id", run.ID)
	w.Header().Set("X-Wisp-Message-Id", run.ReplyMessageID)
	return s.streamRun(w, r, run.ID, 0, enc)
}

// encoderFor is an encoder of the chat SSE dialect the request asks for
// (docs/chat.md): seed 000's (eliza, the default) or delta.
func encoderFor(r *http.Request) (dialect.Encoder, error) {
	switch r.URL.Query().Get("dialect") {
	case "", "eliza":
		return dialect.NewEliza(), nil
	case "delta":
		return dialect.NewDelta(), nil
	}
	return nil, Errorf(http.StatusBadRequest, "dialect must be \"eliza\" or \"delta\"")
}

// runChunks streams a run in seed 001's chunks, from after the client's last event id.
func (s *Server) runChunks(w http.ResponseWriter, r *http.Request) error {
	seq, err := afterOf(r)
	if err != nil {
		return err
	}
	return s.streamRun(w, r, r.PathValue("id"), seq, dialect.NewChunks())
}

// resumeRun streams a run from after the client's last event id.
func (s *Server) resumeRun(w http.ResponseWriter, r *http.Request) error {
	seq, err := afterOf(r)
	if err != nil {
		return err
	}
	enc, err := encoderFor(r)
	if err != nil {
		return err
	}
	return s.streamRun(w, r, r.PathValue("id"), seq, enc)
}

// afterOf is the event number a stream goes on after: ?after=, else Last-Event-ID, else 0.
func afterOf(r *http.Request) (int64, error) {
	after := r.Header.Get("Last-Event-ID")
	if q := r.URL.Query().Get("after"); q != "" {
		after = q
	}
	if after == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(after, 10, 64)
	if err != nil || n < 0 {
		return 0, Errorf(http.StatusBadRequest, "after / Last-Event-ID must be a non-negative event number")
	}
	return n, nil
}

func (s *Server) streamRun(w http.ResponseWriter, r *http.Request, runID string, after int64, enc dialect.Encoder) error {
	sub, err := s.chat.Subscribe(r.Context(), runID, after, enc)
	if err != nil {
		return err
	}
	if sub.Over() {
		// Nothing more will come: 204 tells an EventSource to stop reconnecting.
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	for {
		f, err := sub.Next(sse.ctx(r))
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			continue // time for a heartbeat
		}
		if err != nil {
			return nil // the client went away; the run goes on
		}
		// Flush once a burst is out: frames that were ready together go in one write.
		if err := sse.frame(f.Seq, f.Data, !sub.Buffered()); err != nil {
			return nil
		}
	}
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) error {
	info, err := s.chat.RunInfo(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.RunBody{Run: info})
}

func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request) error {
	if err := s.chat.CancelRun(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Okay)
}
