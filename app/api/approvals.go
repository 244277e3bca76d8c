package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

// Approvals is what the approval and grant routes need (docs/approvals.md).
type Approvals interface {
	Pending(ctx context.Context) ([]wire.Approval, error)
	// Decide returns, with a fault.Conflict error, the approval as it was decided.
	Decide(ctx context.Context, id string, d approval.Decision) (wire.Approval, error)
	Grants(ctx context.Context) ([]wire.Grant, error)
	RevokeGrant(ctx context.Context, id string) error
}

func (s *Server) approvalRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/approvals", s.handle(s.listApprovals))
	mux.Handle("POST /api/approvals/{id}", s.handle(s.decideApproval))
	mux.Handle("GET /api/grants", s.handle(s.listGrants))
	mux.Handle("DELETE /api/grants/{id}", s.handle(s.revokeGrant))
}

func (s *Server) listApprovals(w http.ResponseWriter, r *http.Request) error {
	list, err := s.approvals.Pending(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ApprovalList{Approvals: jsonlist.NonNil(list)})
}

type decisionRequest struct {
	Decision string `json:"decision"`
	Note     string `json:"note"`
	// Bases, with approve_always, are the bases to grant (default: every one it can).
	Bases []string `json:"bases"`
	// Text, only with approve and only for an approval of kind memory, is the user's
	// edit of the proposed note: that is saved instead.
	Text *string `json:"text"`
}

func (s *Server) decideApproval(w http.ResponseWriter, r *http.Request) error {
	var in decisionRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	ap, err := s.approvals.Decide(r.Context(), r.PathValue("id"), approval.Decision{Decision: in.Decision, Note: in.Note, Bases: in.Bases, Text: in.Text})
	var f *fault.Error
	if errors.As(err, &f) && f.Kind == fault.Conflict {
		// 409 names what was decided (null when the run was stopped first).
		return writeJSON(w, http.StatusConflict, wire.ApprovalConflict{Error: f.Msg, Decision: ap.Decision, Approval: ap})
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.ApprovalBody{Approval: ap})
}

func (s *Server) listGrants(w http.ResponseWriter, r *http.Request) error {
	list, err := s.approvals.Grants(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.GrantList{Grants: jsonlist.NonNil(list)})
}

func (s *Server) revokeGrant(w http.ResponseWriter, r *http.Request) error {
	if err := s.approvals.RevokeGrant(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
