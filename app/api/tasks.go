package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/tasks"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

// Tasks is what the tasks routes need (docs/tasks.md).
type Tasks interface {
	Create(ctx context.Context, in tasks.Input) (wire.Task, error)
	Tasks(ctx context.Context) ([]wire.Task, error)
	Task(ctx context.Context, id string) (wire.Task, error)
	Update(ctx context.Context, id string, p tasks.Patch) (wire.Task, error)
	Delete(ctx context.Context, id string) error
	// RunNow starts a run out of the schedule; a conflict while one is open.
	RunNow(ctx context.Context, id string) (wire.Task, error)
}

var _ Tasks = (*tasks.Service)(nil)

func (s *Server) taskRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/tasks", s.handle(s.listTasks))
	mux.Handle("POST /api/tasks", s.handle(s.createTask))
	mux.Handle("GET /api/tasks/{id}", s.handle(s.getTask))
	mux.Handle("PATCH /api/tasks/{id}", s.handle(s.patchTask))
	mux.Handle("DELETE /api/tasks/{id}", s.handle(s.deleteTask))
	mux.Handle("POST /api/tasks/{id}/run", s.handle(s.runTask))
}

func (s *Server) listTasks(w http.ResponseWriter, r *http.Request) error {
	list, err := s.tasks.Tasks(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.TaskList{Tasks: jsonlist.NonNil(list)})
}

func (s *Server) createTask(w http.ResponseWriter, r *http.Request) error {
	var in tasks.Input
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	t, err := s.tasks.Create(r.Context(), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, wire.TaskBody{Task: t})
}

func (s *Server) getTask(w http.ResponseWriter, r *http.Request) error {
	t, err := s.tasks.Task(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.TaskBody{Task: t})
}

func (s *Server) patchTask(w http.ResponseWriter, r *http.Request) error {
	var p tasks.Patch
	if err := decodeJSON(w, r, &p); err != nil {
		return err
	}
	t, err := s.tasks.Update(r.Context(), r.PathValue("id"), p)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.TaskBody{Task: t})
}

func (s *Server) deleteTask(w http.ResponseWriter, r *http.Request) error {
	if err := s.tasks.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) runTask(w http.ResponseWriter, r *http.Request) error {
	t, err := s.tasks.RunNow(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, wire.TaskBody{Task: t})
}
