package api

import (
	"context"
	"net/http"
	"slices"

	"github.com/wispapp/wisp/app/wire"
)

// MaxExpressionMs bounds how long an expression asked through the API is held.
const MaxExpressionMs = 60_000

// Expressions sets the avatar's expression in every window (the /ws expression frame).
type Expressions interface {
	Show(ctx context.Context, e wire.Expression)
}

func (s *Server) expressionRoutes(mux *http.ServeMux) {
	mux.Handle("POST /api/expression", s.handle(s.postExpression))
}

// postExpression shows an expression on every window's avatar (source "api"):
// wire.ExpressionBody → OK.
func (s *Server) postExpression(w http.ResponseWriter, r *http.Request) error {
	var req wire.ExpressionBody
	if err := decodeJSON(w, r, &req); err != nil {
		return err
	}
	switch {
	case req.Expression == "":
		return Errorf(http.StatusBadRequest, "expression is required")
	case !slices.Contains(wire.ExpressionNames, req.Expression):
		return Errorf(http.StatusBadRequest, "Unknown expression: %s", req.Expression)
	case req.Intensity < 0 || req.Intensity > 1:
		return Errorf(http.StatusBadRequest, "intensity must be between 0 and 1")
	case req.DurationMs < 0 || req.DurationMs > MaxExpressionMs:
		return Errorf(http.StatusBadRequest, "durationMs must be between 0 and %d", MaxExpressionMs)
	}
	if req.Intensity == 0 {
		req.Intensity = 1
	}
	s.expressions.Show(r.Context(), wire.NewExpression(req.Expression, req.Intensity, req.DurationMs, "api"))
	return writeJSON(w, http.StatusOK, wire.Okay)
}
