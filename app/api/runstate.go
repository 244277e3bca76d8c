package api

import "net/http"

// getRunState answers the state a run's patches built (docs/chat.md, "Custom
// events and the run's state").
func (s *Server) getRunState(w http.ResponseWriter, r *http.Request) error {
	st, err := s.conversations.RunState(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}
