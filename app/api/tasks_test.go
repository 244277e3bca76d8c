package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/tasks"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// fakeTasks serves the tasks routes from its function fields; nil ones fail.
type fakeTasks struct {
	create func(context.Context, tasks.Input) (wire.Task, error)
	update func(context.Context, string, tasks.Patch) (wire.Task, error)
	get    func(context.Context, string) (wire.Task, error)
	run    func(context.Context, string) (wire.Task, error)
	del    func(context.Context, string) error
}

func (f fakeTasks) Create(ctx context.Context, in tasks.Input) (wire.Task, error) {
	if f.create == nil {
		return wire.Task{}, errNotFaked
	}
	return f.create(ctx, in)
}

func (f fakeTasks) Tasks(context.Context) ([]wire.Task, error) { return nil, nil }

func (f fakeTasks) Task(ctx context.Context, id string) (wire.Task, error) {
	if f.get == nil {
		return wire.Task{}, errNotFaked
	}
	return f.get(ctx, id)
}

func (f fakeTasks) Update(ctx context.Context, id string, p tasks.Patch) (wire.Task, error) {
	if f.update == nil {
		return wire.Task{}, errNotFaked
	}
	return f.update(ctx, id, p)
}

func (f fakeTasks) Delete(ctx context.Context, id string) error {
	if f.del == nil {
		return errNotFaked
	}
	return f.del(ctx, id)
}

func (f fakeTasks) RunNow(ctx context.Context, id string) (wire.Task, error) {
	if f.run == nil {
		return wire.Task{}, errNotFaked
	}
	return f.run(ctx, id)
}

func TestTaskRoutes(t *testing.T) {
	var created tasks.Input
	var patched tasks.Patch
	s := serveAPI(t, "tok-123", Options{Tasks: fakeTasks{
		create: func(_ context.Context, in tasks.Input) (wire.Task, error) {
			if in.Prompt == "" {
				return wire.Task{}, fault.Invalid.Errorf("prompt is required")
			}
			created = in
			return wire.Task{ID: "tk_1", Prompt: in.Prompt}, nil
		},
		get: func(_ context.Context, id string) (wire.Task, error) {
			return wire.Task{}, fault.NotFound.Errorf("task %s not found", id)
		},
		update: func(_ context.Context, id string, p tasks.Patch) (wire.Task, error) {
			patched = p
			return wire.Task{ID: id, Paused: p.Paused != nil && *p.Paused}, nil
		},
		run: func(_ context.Context, id string) (wire.Task, error) {
			if id == "busy" {
				return wire.Task{}, fault.Conflict.Errorf("a run of this task is still running")
			}
			if id == "nomodel" {
				return wire.Task{}, fault.Unavailable.Errorf("no model is set up")
			}
			return wire.Task{ID: id, LastRun: &wire.TaskRun{Status: wire.TaskRunRunning, Manual: true}}, nil
		},
		del: func(context.Context, string) error { return nil },
	}})
	got := s.call("POST", "/api/tasks", map[string]any{"prompt": "check mail", "rrule": "FREQ=DAILY", "catchUp": false,
		"grants": []map[string]string{{"kind": "shell", "base": "ls"}}}, nil)
	if got.status != 201 || got.body["task"].(map[string]any)["id"] != "tk_1" {
		t.Fatalf("create: %d %v", got.status, got.body)
	}
	if created.RRule == nil || *created.RRule != "FREQ=DAILY" || created.CatchUp == nil || *created.CatchUp ||
		len(created.Grants) != 1 || created.Grants[0].Kind != wire.KindShell {
		t.Fatalf("the service got %+v", created)
	}
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		err          string
	}{
		{"POST", "/api/tasks", map[string]any{"prompt": ""}, 400, "prompt is required"},
		{"POST", "/api/tasks", `{"prompt":`, 400, ""},
		{"GET", "/api/tasks/nope", nil, 404, "task nope not found"},
		{"POST", "/api/tasks/busy/run", nil, 409, "a run of this task is still running"},
		{"POST", "/api/tasks/nomodel/run", nil, 503, "no model is set up"},
	} {
		got := s.call(tc.method, tc.path, tc.body, nil)
		if got.status != tc.status || (tc.err != "" && got.body["error"] != tc.err) {
			t.Errorf("%s %s: %d %v, want %d %q", tc.method, tc.path, got.status, got.body, tc.status, tc.err)
		}
	}
	if got := s.call("PATCH", "/api/tasks/tk_1", `{"paused":true,"cron":"0 9 * * *"}`, nil); got.status != 200 ||
		got.body["task"].(map[string]any)["paused"] != true {
		t.Fatalf("patch: %d %v", got.status, got.body)
	}
	if patched.Paused == nil || !*patched.Paused || patched.Cron == nil || *patched.Cron != "0 9 * * *" || patched.Prompt != nil {
		t.Fatalf("the service got %+v", patched)
	}
	if got := s.call("POST", "/api/tasks/tk_1/run", nil, nil); got.status != 202 ||
		got.body["task"].(map[string]any)["lastRun"].(map[string]any)["manual"] != true {
		t.Fatalf("run: %d %v", got.status, got.body)
	}
	if got := s.call("DELETE", "/api/tasks/tk_1", nil, nil); got.status != 204 {
		t.Fatalf("delete: %d", got.status)
	}
	if got := s.call("GET", "/api/tasks", nil, nil); got.status != 200 || got.body["tasks"] == nil {
		t.Fatalf("list: %d %v (an empty list, never null)", got.status, got.body)
	}
	s.checkGuarded([]route{
		{"GET", "/api/tasks", ""}, {"POST", "/api/tasks", `{"prompt":"x","cron":"* * * * *"}`},
		{"GET", "/api/tasks/x", ""}, {"PATCH", "/api/tasks/x", `{"paused":true}`},
		{"DELETE", "/api/tasks/x", ""}, {"POST", "/api/tasks/x/run", ""},
	})
}
