package chat

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/wire"
)

// The user's bubble is saved while the model is asked, but before the run's first
// frame can be seen, and it stays the conversation's first display row.
func TestUserBubbleBeforeFirstFrame(t *testing.T) {
	agent := newScript(1, text("Hi"), text(" there"))
	e := newEnv(t, agent)
	conv := e.conversation()
	run := e.send(conv, "hello")
	first := next(t, subscribe(t, e.svc, run.ID, 0), 1)
	<-agent.held // the run waits after its first event
	rows, err := e.st.DisplayMessages(context.Background(), conv, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].MessageType != "user" || string(rows[0].Content) != `{"text":"hello"}` {
		t.Fatalf("display rows when the first frame (%v) was seen: %+v", first, rows)
	}
	if saved := e.frames.ofType(wire.TypeDisplayMessageSaved); len(saved) != 1 {
		t.Fatalf("%d display-message-saved frames published, want the user's", len(saved))
	}
	close(agent.release)
	waitRun(t, run)
	rows, err = e.st.DisplayMessages(context.Background(), conv, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].MessageType != "user" || rows[1].ContentType != "text" {
		t.Fatalf("display rows after the run: %+v", rows)
	}
}
