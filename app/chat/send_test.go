package chat

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/store"
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

// A claim runs in the transaction that saves the message and the run: its error
// leaves neither, and the message keeps its source.
func TestSendClaim(t *testing.T) {
	e := newEnv(t, newScript(-1, text("done")))
	ctx := context.Background()
	conv := e.conversation()
	refused := errors.New("slot taken")
	_, err := e.svc.Send(ctx, conv, SendInput{Text: "scheduled", Source: "task",
		Claim: func(context.Context, *store.Tx, string) error { return refused }})
	if !errors.Is(err, refused) {
		t.Fatalf("got %v, want the claim's error", err)
	}
	if msgs, err := e.st.Messages(ctx, conv, 10); err != nil || len(msgs) != 0 {
		t.Fatalf("a refused claim left messages %v (%v)", msgs, err)
	}
	var claimed string
	run, err := e.svc.Send(ctx, conv, SendInput{Text: "scheduled", Source: "task",
		Claim: func(ctx context.Context, tx *store.Tx, runID string) error {
			claimed = runID
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	waitRun(t, run)
	if claimed != run.ID {
		t.Fatalf("claimed for run %q, want %q", claimed, run.ID)
	}
	if _, err := e.st.Run(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	msgs, err := e.st.Messages(ctx, conv, 10)
	if err != nil || len(msgs) == 0 || msgs[0].Source != "task" {
		t.Fatalf("the message is %+v (%v), want source task", msgs, err)
	}
}
