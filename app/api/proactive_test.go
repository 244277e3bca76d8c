package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/wire"
)

func TestReminderAndAutonomyRoutes(t *testing.T) {
	var set []bool
	on := false
	var added proactive.ReminderInput
	s := serveAPI(t, "tok-123", Options{Settings: fakeSettings{autonomy: func(_ context.Context, enabled bool) error {
		set = append(set, enabled)
		on = enabled
		return nil
	}}, Proactive: fakeProactive{
		reminders: func(context.Context) ([]wire.Reminder, error) { return []wire.Reminder{}, nil },
		addReminder: func(_ context.Context, in proactive.ReminderInput) (wire.Reminder, error) {
			added = in
			return wire.Reminder{ID: "r1", Text: in.Text}, nil
		},
		autonomy: func(context.Context) (wire.AutonomyState, error) { return wire.AutonomyState{Enabled: on}, nil },
	}})
	if got := s.call("POST", "/api/reminders", map[string]any{"text": "tea", "inMinutes": 5}, nil); got.status != 201 || got.body["id"] != "r1" {
		t.Fatalf("create: %d %v", got.status, got.body)
	}
	if added.Text != "tea" || added.InMinutes == nil || *added.InMinutes != 5 {
		t.Fatalf("the service got %+v", added)
	}
	for _, body := range []string{`{}`, `{"enabled":null}`} {
		if got := s.call("POST", "/api/agent/autonomy", body, nil); got.status != 400 {
			t.Errorf("POST %s: %d", body, got.status)
		}
	}
	if got := s.call("POST", "/api/agent/autonomy", `{"enabled":true}`, nil); got.status != 200 || got.body["enabled"] != true {
		t.Fatalf("autonomy: %d %v", got.status, got.body)
	}
	if len(set) != 1 || !set[0] {
		t.Fatalf("set %v", set)
	}
	s.checkGuarded([]route{
		{"GET", "/api/reminders", ""}, {"POST", "/api/reminders", `{"text":"x","inMinutes":1}`},
		{"DELETE", "/api/reminders/x", ""}, {"GET", "/api/agent/autonomy", ""},
		{"POST", "/api/agent/autonomy", `{"enabled":true}`},
	})
	if list := s.call("GET", "/api/reminders", nil, nil).body["reminders"]; list == nil {
		t.Fatal("with the token the list is served")
	}
}
