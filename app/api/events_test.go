package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
)

func TestAgentEventIsPublishedThenRouted(t *testing.T) {
	var published, routed []wire.Envelope
	closed := false
	s := serveAPI(t, "", Options{
		Hub: fakeHub{publish: func(env wire.Envelope) (wire.Envelope, error) {
			if closed {
				return env, ws.ErrClosed
			}
			env.EventID = "e7"
			published = append(published, env)
			return env, nil
		}},
		Proactive: fakeProactive{routeEvent: func(_ context.Context, env wire.Envelope) error {
			routed = append(routed, env)
			return nil
		}},
	})
	for _, body := range []string{
		`{"kind":"dream","stream":"assistant","payload":{}}`,
		`{"stream":"elsewhere","payload":{}}`,
		`{"stream":"assistant","payload":[1]}`,
		`{"stream":"assistant"}`,
	} {
		if got := s.call("POST", "/api/agent/event", body, nil); got.status != 400 {
			t.Errorf("POST %s: %d %v", body, got.status, got.body)
		}
	}
	got := s.call("POST", "/api/agent/event", `{"kind":"heartbeat","stream":"assistant","payload":{"text":"hi"},"runId":"r1"}`, nil)
	if got.status != 200 || got.body["eventId"] != "e7" {
		t.Fatalf("publish: %d %v", got.status, got.body)
	}
	if len(published) != 1 || published[0].Type != wire.TypeHeartbeatEvent || published[0].RunID != "r1" ||
		len(routed) != 1 || routed[0].EventID != "e7" {
		t.Fatalf("published %+v, routed %+v", published, routed)
	}
	closed = true
	if got := s.call("POST", "/api/agent/event", `{"stream":"assistant","payload":{}}`, nil); got.status != 503 {
		t.Fatalf("a closed hub: %d %v", got.status, got.body)
	}
}
