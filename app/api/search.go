package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/app/chat"
)

// search answers GET /api/search?q=&limit=&cursor= (docs/search.md).
func (s *Server) search(w http.ResponseWriter, r *http.Request) error {
	query := r.URL.Query()
	limit := 0
	if query.Has("limit") {
		n, err := strconv.Atoi(query.Get("limit"))
		if err != nil || n < 1 || n > chat.SearchMaxLimit {
			return Errorf(http.StatusBadRequest, "limit must be a whole number from 1 to %d", chat.SearchMaxLimit)
		}
		limit = n
	}
	res, err := s.conversations.Search(r.Context(), query.Get("q"), limit, query.Get("cursor"))
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		return nil // the client gave up on it (the UI's next keystroke): nobody to answer
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, res)
}
