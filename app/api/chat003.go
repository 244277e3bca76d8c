package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/compat"
	"github.com/wispapp/wisp/app/dialect"
)

// POST /api/chat serves two clients that share the route:
//
//   - seed 003's dialect: {messages, stream?, session_id?}. The session is a
//     conversation (made when none is named); its saved history is the context and
//     the last message, a user's, is what is sent. With stream (the default) the
//     answer is SSE with named events (app/dialect.Seed003); with stream: false, one
//     JSON answer with the whole text and the actions taken, given when the run ends
//     or waits for an approval.
//   - the milady dashboard's client: {text, channelType?}, answered once the run has
//     ended with {text, agentName, …} like POST /api/conversations/{id}/messages. Its
//     messages go to one conversation of their own (metadata {"client":"milady"}).
//
// A body with messages is seed 003's; one with text and no messages is milady's.

type chatRequest003 struct {
	Messages []struct {
		Role    string               `json:"role"`
		Content compat.OpenAIContent `json:"content"`
	} `json:"messages"`
	Stream    *bool  `json:"stream"`
	SessionID string `json:"session_id"`
	// Text is the milady client's message.
	Text *string `json:"text"`
}

// miladyMetadata marks the conversation of the milady client's messages.
var miladyMetadata = json.RawMessage(`{"client":"milady"}`)

func (s *Server) chat003(w http.ResponseWriter, r *http.Request) error {
	var req chatRequest003
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	if req.Messages == nil && req.Text != nil {
		return s.chatMilady(w, r, *req.Text)
	}
	n := len(req.Messages)
	var text string
	if n > 0 {
		var err error
		if text, err = req.Messages[n-1].Content.Text(); err != nil {
			return Errorf(http.StatusBadRequest, "%s", err.Error())
		}
	}
	if n == 0 || req.Messages[n-1].Role != "user" || strings.TrimSpace(text) == "" {
		return Errorf(http.StatusBadRequest, "messages must end with a non-empty user message (or send the milady client's {text})")
	}
	session := req.SessionID
	if session == "" {
		conv, err := s.chat.CreateConversation(r.Context(), "", nil)
		if err != nil {
			return err
		}
		session = conv.ID
	} else if _, err := s.chat.Conversation(r.Context(), session); err != nil {
		return err
	}
	run, err := s.chat.Send(r.Context(), session, chat.SendInput{Text: text})
	if err != nil {
		return err
	}
	if req.Stream != nil && !*req.Stream {
		return s.answer003(w, r, run.ID, dialect.NewSeed003Answer(session, run.ID))
	}
	return s.stream003(w, r, run.ID, dialect.NewSeed003(session, run.ID))
}

// chatMilady answers the milady client's {text}.
func (s *Server) chatMilady(w http.ResponseWriter, r *http.Request, text string) error {
	if strings.TrimSpace(text) == "" {
		return Errorf(http.StatusBadRequest, "text is required")
	}
	conv, err := s.miladyConversation(r.Context())
	if err != nil {
		return err
	}
	run, err := s.chat.Send(r.Context(), conv, chat.SendInput{Text: text})
	if err != nil {
		return err
	}
	return s.answerRun(w, r, run)
}

// miladyConversation is the conversation of the milady client's messages: the newest
// one marked as theirs, or a new one.
func (s *Server) miladyConversation(ctx context.Context) (string, error) {
	convs, err := s.chat.Conversations(ctx)
	if err != nil {
		return "", err
	}
	for _, c := range convs {
		if string(c.Metadata) == string(miladyMetadata) {
			return c.ID, nil
		}
	}
	c, err := s.chat.CreateConversation(ctx, "", miladyMetadata)
	if err != nil {
		return "", err
	}
	return c.ID, nil
}

// stream003 streams a run's seed-003 events: init, then each event's (the encoder
// writes them as SSE text), until the run ends.
func (s *Server) stream003(w http.ResponseWriter, r *http.Request, runID string, enc *dialect.Seed003) error {
	sub, err := s.chat.Subscribe(r.Context(), runID, 0, enc)
	if err != nil {
		return err
	}
	sse, err := startSSE(w)
	if err != nil {
		return err
	}
	defer sse.stop()
	if sse.raw(enc.Init().AppendSSE(nil), true) != nil {
		return nil
	}
	for {
		f, err := sub.Next(sse.ctx(r))
		if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
			continue // time for a heartbeat
		}
		if err != nil {
			return nil // the end of the run, or the client went away (the run goes on)
		}
		if sse.raw(f.Data, !sub.Buffered()) != nil || f.Final {
			return nil
		}
	}
}

// answer003 writes the one answer of stream: false, which the encoder gives when the
// run ends or waits for an approval.
func (s *Server) answer003(w http.ResponseWriter, r *http.Request, runID string, enc *dialect.Seed003Answer) error {
	sub, err := s.chat.Subscribe(r.Context(), runID, 0, enc)
	if err != nil {
		return err
	}
	f, err := sub.Next(r.Context())
	if errors.Is(err, io.EOF) {
		return Errorf(http.StatusBadGateway, "the run ended without an answer")
	}
	if err != nil {
		return nil // the client went away; the run goes on
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(append(f.Data, '\n'))
	return err
}
