package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

// Send refuses what it cannot do with the kind of failure the API shows.
func TestSendRefusals(t *testing.T) {
	agent := musicScript()
	e := newEnv(t, agent)
	ctx := context.Background()
	busy := e.conversation()
	e.send(busy, "first")
	<-agent.held // its run is still being written
	idle := e.conversation()
	cases := []struct {
		name, conv, text string
		want             fault.Kind
	}{
		{"empty", idle, "  \n", fault.Invalid},
		{"too long", idle, strings.Repeat("é", MaxMessageRunes+1), fault.Invalid},
		{"unknown conversation", "nope", "hi", fault.NotFound},
		{"busy", busy, "second", fault.Conflict},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.svc.Send(ctx, tc.conv, SendInput{Text: tc.text}); fault.KindOf(err) != tc.want {
				t.Fatalf("got %v (%v), want %v", err, fault.KindOf(err), tc.want)
			}
		})
	}
	if _, err := e.svc.Truncate(ctx, busy, "m", false); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("truncate during a run: %v", err)
	}
	close(agent.release)
	e.svc.Stop()
	if _, err := e.svc.Send(ctx, idle, SendInput{Text: "hi"}); fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("after Stop: %v", err)
	}
}

func TestSendWithoutAModel(t *testing.T) {
	e := newEnv(t, musicScript())
	e.svc.opts.CanRespond = func() (bool, string) { return false, "No model is set up yet." }
	_, err := e.svc.Send(context.Background(), e.conversation(), SendInput{Text: "hi"})
	if fault.KindOf(err) != fault.Unavailable || err.Error() != "No model is set up yet." {
		t.Fatalf("got %v", err)
	}
}
