package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

func (s *Server) listConversations(w http.ResponseWriter, r *http.Request) error {
	convs, err := s.conversations.Conversations(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ConversationList{Conversations: jsonlist.NonNil(convs)})
}

type createConversationRequest struct {
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
}

func (s *Server) createConversation(w http.ResponseWriter, r *http.Request) error {
	var req createConversationRequest
	if r.ContentLength != 0 {
		if err := decodeJSON(w, r, &req); err != nil {
			return err
		}
	}
	conv, err := s.conversations.CreateConversation(r.Context(), req.Title, req.Metadata)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ConversationBody{Conversation: conv})
}

func (s *Server) getConversation(w http.ResponseWriter, r *http.Request) error {
	conv, err := s.conversations.Conversation(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ConversationBody{Conversation: conv})
}

type patchConversationRequest struct {
	Title    *string `json:"title"`
	Generate bool    `json:"generate"`
}

func (s *Server) patchConversation(w http.ResponseWriter, r *http.Request) error {
	var req patchConversationRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	id := r.PathValue("id")
	var (
		conv wire.Conversation
		err  error
	)
	switch {
	case req.Generate:
		conv, err = s.conversations.GenerateTitle(r.Context(), id)
	case req.Title != nil:
		conv, err = s.conversations.Rename(r.Context(), id, *req.Title)
	default:
		return Errorf(http.StatusBadRequest, "send {\"title\": ...} or {\"generate\": true}")
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ConversationBody{Conversation: conv})
}

func (s *Server) deleteConversation(w http.ResponseWriter, r *http.Request) error {
	if err := s.conversations.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Okay)
}

// listMessages answers a page of the branch a conversation shows
// (?limit=&before=|after=|around=, docs/chat.md#branches).
func (s *Server) listMessages(w http.ResponseWriter, r *http.Request) error {
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	list, err := s.conversations.Messages(r.Context(), r.PathValue("id"), p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, nonNilList(list))
}

// pageOf reads a page's query parameters.
func pageOf(r *http.Request) (chat.Page, error) {
	q := r.URL.Query()
	p := chat.Page{Before: q.Get("before"), After: q.Get("after"), Around: q.Get("around")}
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > chat.MaxPageLimit {
			return p, Errorf(http.StatusBadRequest, "limit must be a number from 1 to %d", chat.MaxPageLimit)
		}
		p.Limit = n
	}
	return p, nil
}

func nonNilList(l wire.MessageList) wire.MessageList {
	l.Messages, l.DisplayMessages = jsonlist.NonNil(l.Messages), jsonlist.NonNil(l.DisplayMessages)
	return l
}

type branchRequest struct {
	MessageID string `json:"messageId"`
}

// putBranch shows the branch through a message and answers its newest page.
func (s *Server) putBranch(w http.ResponseWriter, r *http.Request) error {
	var req branchRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	list, err := s.conversations.SetBranch(r.Context(), r.PathValue("id"), req.MessageID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, nonNilList(list))
}

// getSnapshot is the conversation as a client renders it before resuming its run's
// stream (seed 001: after a reload or a stream_resync).
func (s *Server) getSnapshot(w http.ResponseWriter, r *http.Request) error {
	snap, err := s.conversations.Snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, snap)
}

type truncateRequest struct {
	MessageID string `json:"messageId"`
	Inclusive bool   `json:"inclusive"`
}

func (s *Server) truncateMessages(w http.ResponseWriter, r *http.Request) error {
	var req truncateRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	n, err := s.conversations.Truncate(r.Context(), r.PathValue("id"), req.MessageID, req.Inclusive)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Truncated{OK: true, DeletedCount: int64(n)})
}

func (s *Server) listDisplayMessages(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.conversations.DisplayMessages(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.DisplayMessageList{DisplayMessages: jsonlist.NonNil(rows)})
}
