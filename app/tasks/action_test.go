package tasks

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/clock"
)

// TestScheduleSchemaNow: SCHEDULE_TASK tells the model the time now in the user's
// zone, to the minute, so its text stays the same through a minute.
func TestScheduleSchemaNow(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	clk := clock.NewFake(time.Date(2026, 3, 29, 0, 59, 1, 0, time.UTC)) // 01:59 CET, before the spring change
	s := New(Options{Clock: clk, Location: berlin})
	schema := func() (string, string) {
		raw := s.ScheduleAction(nil).Schema()
		var sch struct {
			Properties map[string]struct{ Description string }
		}
		if err := json.Unmarshal(raw, &sch); err != nil {
			t.Fatal(err)
		}
		return string(raw), sch.Properties["at"].Description
	}
	first, at := schema()
	if !strings.Contains(at, "Now: Sunday 2026-03-29T01:59+01:00, zone Europe/Berlin (CET)") {
		t.Fatalf("at: %s", at)
	}
	clk.Advance(58 * time.Second)
	if again, _ := schema(); again != first {
		t.Fatalf("changed within the minute:\n%s\n%s", first, again)
	}
	clk.Advance(time.Second)
	if _, at := schema(); !strings.Contains(at, "Now: Sunday 2026-03-29T03:00+02:00, zone Europe/Berlin (CEST)") {
		t.Fatalf("after the change: %s", at)
	}
}
