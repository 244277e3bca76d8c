package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/wispapp/wisp/app/wire"
)

// Usage answers what the model calls cost (docs/usage.md).
type Usage interface {
	// Conversation is the usage of a conversation's model calls; not found for a
	// conversation that does not exist.
	Conversation(ctx context.Context, id string) (wire.ConversationUsage, error)
	// Report is the usage of the last days local days by day and model; days must be
	// 1 to UsageMaxDays.
	Report(ctx context.Context, days int) (wire.UsageReport, error)
}

// The days GET /api/usage covers unless asked, and the most it covers.
const (
	UsageDefaultDays = 30
	UsageMaxDays     = 366
)

func (s *Server) usageRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/conversations/{id}/usage", s.handle(s.conversationUsage))
	mux.Handle("GET /api/usage", s.handle(s.usageReport))
}

// conversationUsage answers GET /api/conversations/{id}/usage.
func (s *Server) conversationUsage(w http.ResponseWriter, r *http.Request) error {
	u, err := s.usage.Conversation(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, u)
}

// usageReport answers GET /api/usage?days=N.
func (s *Server) usageReport(w http.ResponseWriter, r *http.Request) error {
	days := UsageDefaultDays
	if q := r.URL.Query(); q.Has("days") {
		n, err := strconv.Atoi(q.Get("days"))
		if err != nil || n < 1 || n > UsageMaxDays {
			return Errorf(http.StatusBadRequest, "days must be a whole number from 1 to %d", UsageMaxDays)
		}
		days = n
	}
	report, err := s.usage.Report(r.Context(), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, report)
}
