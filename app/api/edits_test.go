package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// fakeEdits answers from a map: an edit is undone once, then conflicts; an edit
// named "changed" has a file that changed since.
type fakeEdits struct{ edits map[string]*wire.FileEdit }

func (f fakeEdits) Edits(_ context.Context, callID string) ([]wire.FileEdit, error) {
	if callID == "" {
		return nil, fault.Invalid.Errorf("callId is required")
	}
	out := []wire.FileEdit{}
	for _, e := range f.edits {
		if e.CallID == callID {
			out = append(out, *e)
		}
	}
	return out, nil
}

func (f fakeEdits) Undo(_ context.Context, id string) (wire.FileEdit, error) {
	e, ok := f.edits[id]
	switch {
	case !ok:
		return wire.FileEdit{}, fault.NotFound.Errorf("no edit %s", id)
	case id == "changed":
		return wire.FileEdit{}, fault.Conflict.Errorf("notes.md changed since this edit: undoing it would lose those changes")
	case e.UndoneAt != nil:
		return wire.FileEdit{}, fault.Conflict.Errorf("this edit of notes.md is already undone")
	}
	at := "2025-11-21T09:05:00.000Z"
	e.UndoneAt = &at
	return *e, nil
}

func TestEditRoutes(t *testing.T) {
	f := fakeEdits{edits: map[string]*wire.FileEdit{
		"ed_1":    {ID: "ed_1", CallID: "call_1", Path: "/p/notes.md", Undoable: true},
		"changed": {ID: "changed", CallID: "call_2", Path: "/p/notes.md", Undoable: true},
	}}
	s := serveAPI(t, "", Options{Edits: f})
	got := s.call("GET", "/api/edits?callId=call_1", nil, nil)
	if got.status != 200 {
		t.Fatalf("GET edits: %d %v", got.status, got.body)
	}
	if edits, _ := got.body["edits"].([]any); len(edits) != 1 || edits[0].(map[string]any)["id"] != "ed_1" {
		t.Fatalf("GET edits: %v", got.body)
	}
	if got := s.call("GET", "/api/edits", nil, nil); got.status != 400 || got.body["error"] != "callId is required" {
		t.Errorf("GET edits without callId: %d %v", got.status, got.body)
	}
	got = s.call("POST", "/api/edits/ed_1/undo", nil, nil)
	edit, _ := got.body["edit"].(map[string]any)
	if got.status != 200 || edit["undoneAt"] == nil {
		t.Fatalf("undo: %d %v", got.status, got.body)
	}
	for _, tc := range []struct {
		id     string
		status int
		want   string
	}{
		{"ed_1", 409, "this edit of notes.md is already undone"},
		{"changed", 409, "notes.md changed since this edit: undoing it would lose those changes"},
		{"ed_9", 404, "no edit ed_9"},
	} {
		got := s.call("POST", "/api/edits/"+tc.id+"/undo", nil, nil)
		if got.status != tc.status || got.body["error"] != tc.want {
			t.Errorf("undo %s: %d %v, want %d %q", tc.id, got.status, got.body, tc.status, tc.want)
		}
	}
}
