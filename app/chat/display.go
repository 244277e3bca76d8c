package chat

import (
	"context"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/runtime"
)

// DisplayMessages lists a conversation's UI rows, oldest first.
func (s *Service) DisplayMessages(ctx context.Context, convID string) ([]wire.DisplayMessage, error) {
	if _, err := s.conversation(ctx, convID); err != nil {
		return nil, err
	}
	rows, err := s.store.DisplayMessages(ctx, convID, 1000)
	if err != nil {
		return nil, err
	}
	out := make([]wire.DisplayMessage, len(rows))
	for i, r := range rows {
		out[i] = view.DisplayMessage(r)
	}
	return out, nil
}

// displayRecorder turns one run's events into display messages: per model step a
// thinking row and a text row, a tool_call row per action (pending → executing →
// completed | failed, its latest status line as displayText) and its tool_result, and
// an error row when the run fails. A failed write is logged; the run goes on.
type displayRecorder struct {
	s        *Service
	run      *Run
	text     strings.Builder
	thinking strings.Builder
	calls    map[string]runtime.ToolStart // open calls by id
	// cancelled calls keep that status when they end (a stop or a denial).
	cancelled map[string]bool
	// userSaved is closed once the user's bubble is saved (see user).
	userSaved chan struct{}
}

func newDisplayRecorder(s *Service, run *Run) *displayRecorder {
	return &displayRecorder{s: s, run: run, calls: map[string]runtime.ToolStart{}, cancelled: map[string]bool{}}
}

// user saves the user's bubble, timed like the user's message so a truncate at that
// message treats both alike. It is saved while the model is asked (the first token
// does not wait for it), and before anything else the run records or shows: every
// later call of the recorder, observe first of all, waits for it.
func (d *displayRecorder) user(text string) {
	done := make(chan struct{})
	d.userSaved = done
	d.s.bg.Add(1)
	go func() {
		defer d.s.bg.Done()
		defer close(done)
		content := map[string]any{"text": text}
		if len(d.run.attachments) > 0 {
			content["attachments"] = view.Attachments(d.run.attachments)
		}
		d.saveAt(d.run.StartedAt, "user", "text", content, "", "")
	}()
}

// waitUser waits until the user's bubble is saved, if it is being saved.
func (d *displayRecorder) waitUser() {
	if d.userSaved != nil {
		<-d.userSaved
		d.userSaved = nil
	}
}

func (d *displayRecorder) observe(ev runtime.Event) {
	d.waitUser()
	switch e := ev.Data.(type) {
	case runtime.TextDelta:
		d.text.WriteString(e.Text)
	case runtime.Thinking:
		d.thinking.WriteString(e.Text)
	case runtime.ToolStart:
		d.flushStep()
		d.calls[e.CallID] = e
		// Pending until the action reports (waiting, executing) or calls back.
		d.save("assistant", "tool_call", toolContent(e), runtime.ToolPending, e.CallID)
	case runtime.Callback:
		content := toolContent(d.calls[e.CallID])
		content["displayText"] = e.Text
		d.update(e.CallID, "executing", content)
	case runtime.ToolStatus:
		if e.Status == runtime.ToolCancelled {
			d.cancelled[e.CallID] = true
		}
		content := toolContent(d.calls[e.CallID])
		if e.TerminalRunID != "" {
			content["terminalRunId"] = e.TerminalRunID
		}
		d.update(e.CallID, e.Status, content)
	case runtime.RunPaused:
		// The approval card: what the user is asked (the action's JSON).
		var asked any = map[string]any{}
		if len(e.Approval) > 0 {
			asked = e.Approval
		}
		d.save("system", "approval", asked, "", "")
	case runtime.ToolEnd:
		status := "completed"
		switch {
		case d.cancelled[e.CallID]:
			status = runtime.ToolCancelled
		case e.Error != "":
			status = "failed"
		}
		content := toolContent(d.calls[e.CallID])
		content["result"], content["error"] = e.Result, e.Error
		d.update(e.CallID, status, content)
		delete(d.calls, e.CallID)
		d.save("tool", "tool_result", map[string]any{"callId": e.CallID, "name": e.Name, "result": e.Result, "error": e.Error}, "", e.CallID)
	}
}

// finish saves what the last step said and, if the run did not end well, why.
func (d *displayRecorder) finish(status, errMsg string) {
	d.waitUser()
	d.flushStep()
	switch status {
	case StatusFailed:
		d.save("system", "error", map[string]any{"text": errMsg}, "", "")
	case StatusInterrupted:
		for id, call := range d.calls {
			d.update(id, "interrupted", toolContent(call))
		}
		d.save("system", "notification", map[string]any{"text": "The reply was interrupted: " + errMsg}, "", "")
	}
}

func toolContent(t runtime.ToolStart) map[string]any {
	return map[string]any{"callId": t.CallID, "name": t.Name, "arguments": t.Arguments}
}

func (d *displayRecorder) flushStep() {
	if d.thinking.Len() > 0 {
		d.save("assistant", "thinking", map[string]any{"text": d.thinking.String()}, "", "")
		d.thinking.Reset()
	}
	if d.text.Len() > 0 {
		d.save("assistant", "text", map[string]any{"text": d.text.String()}, "", "")
		d.text.Reset()
	}
}

func (d *displayRecorder) save(msgType, contentType string, content any, status, toolCallID string) {
	d.waitUser()
	d.saveAt(time.Now(), msgType, contentType, content, status, toolCallID)
}

func (d *displayRecorder) saveAt(now time.Time, msgType, contentType string, content any, status, toolCallID string) {
	saved, err := d.s.store.SaveDisplayMessage(context.Background(), store.DisplayMessage{
		ID: ids.New(), ConversationID: d.run.ConversationID, RunID: d.run.ID, MessageType: msgType,
		ContentType: contentType, Content: wire.JSON(content), Status: status, ToolCallID: toolCallID,
		CreatedAt: now, UpdatedAt: now,
	})
	if err != nil {
		d.s.log.Warn("save display message", "run", d.run.ID, "type", contentType, "err", err)
		return
	}
	d.s.events.Publish(wire.NewDisplayMessageSaved(view.DisplayMessage(saved)))
}

func (d *displayRecorder) update(callID, status string, content any) {
	d.waitUser()
	saved, err := d.s.store.UpdateToolStatus(context.Background(), d.run.ID, callID, status, wire.JSON(content), time.Now())
	if err != nil {
		d.s.log.Warn("update tool status", "run", d.run.ID, "call", callID, "err", err)
		return
	}
	d.s.events.Publish(wire.NewDisplayMessageUpdated(view.DisplayMessage(saved)))
}
