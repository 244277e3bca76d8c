package app

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// taskOf is the task of a {task} body.
func taskOf(t *testing.T, code int, out map[string]any, want int) map[string]any {
	t.Helper()
	if code != want {
		t.Fatalf("got %d %v, want %d", code, out, want)
	}
	task, _ := out["task"].(map[string]any)
	if task == nil {
		t.Fatalf("no task in %v", out)
	}
	return task
}

// taskRunIs matches the task-updated frame of a task whose last run has status.
func taskRunIs(id, status string) func(map[string]any) bool {
	return func(m map[string]any) bool {
		if m["type"] != "task-updated" {
			return false
		}
		task, _ := m["task"].(map[string]any)
		last, _ := task["lastRun"].(map[string]any)
		return task["id"] == id && last != nil && last["status"] == status
	}
}

// storedMessage is a message of GET …/messages with its source.
type storedMessage struct {
	ID, Role, Text, Source, RunID string
}

func (s *shellApp) storedMessages(conv string) []storedMessage {
	s.t.Helper()
	var out struct{ Messages []storedMessage }
	if code := s.call("GET", "/api/conversations/"+conv+"/messages", nil, &out); code != 200 {
		s.t.Fatalf("messages: %d", code)
	}
	return out.Messages
}

// waitIdle waits until the conversation has no active run.
func (s *shellApp) waitIdle(conv string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, snap := s.do("GET", "/api/conversations/"+conv+"/snapshot", nil); snap["activeRun"] == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("conversation %s still has an active run", conv)
}

// A task made through the API, without a conversation, gets one named after its
// prompt; run now and at its time (the fake clock), each run is a user message of
// source task answered by the agent, its result on the task, the conversation
// unread and the reply announced as a proactive message of source task.
func TestTaskRunsThroughTheApp(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(llmtest.Turn{Text: []string{"Two new files: notes.md and todo.txt."}}, llmtest.Turn{Text: []string{"Nothing new."}})
	clk := clock.NewFake(time.Date(2026, 6, 1, 8, 59, 0, 0, time.Local))
	a := startMemory(t, `{}`, fake, clk)
	ws := a.dialWS()

	code, out := a.do("POST", "/api/tasks", map[string]any{"prompt": "Check my inbox folder", "cron": "0 9 * * *"})
	task := taskOf(t, code, out, http.StatusCreated)
	id, conv := task["id"].(string), task["conversationId"].(string)
	if conv == "" || task["schedule"] != "cron 0 9 * * *" || task["catchUp"] != true {
		t.Fatalf("task %v", task)
	}
	ws.waitFor(t, func(m map[string]any) bool {
		c, _ := m["conversation"].(map[string]any)
		return m["type"] == "conversation-updated" && c["id"] == conv && c["title"] == "Check my inbox folder"
	})

	code, out = a.do("POST", "/api/tasks/"+id+"/run", nil)
	if run := taskOf(t, code, out, http.StatusAccepted)["lastRun"].(map[string]any); run["manual"] != true || run["status"] != "running" {
		t.Fatalf("run now: %v", run)
	}
	done := ws.waitFor(t, taskRunIs(id, "done"))
	if r := done["task"].(map[string]any)["lastRun"].(map[string]any)["result"]; r != "Two new files: notes.md and todo.txt." {
		t.Fatalf("result %v", r)
	}
	ws.waitFor(t, func(m map[string]any) bool {
		c, _ := m["conversation"].(map[string]any)
		return m["type"] == "conversation-updated" && c["id"] == conv && c["unread"] == true
	})
	p := ws.waitFor(t, ofType("proactive-message"))
	msg := p["message"].(map[string]any)
	if p["conversationId"] != conv || msg["source"] != "task" || msg["text"] != "Two new files: notes.md and todo.txt." {
		t.Fatalf("proactive-message %v", p)
	}
	msgs := a.storedMessages(conv)
	if len(msgs) != 2 || msgs[0].Source != "task" || msgs[0].Text != "Check my inbox folder" || msgs[1].ID != msg["id"] {
		t.Fatalf("messages %+v", msgs)
	}

	// At its time, once the conversation is free (a slot waits for a reply being
	// written).
	a.waitIdle(conv)
	clk.Advance(time.Minute)
	ws.waitFor(t, func(m map[string]any) bool {
		if !taskRunIs(id, "done")(m) {
			return false
		}
		return m["task"].(map[string]any)["lastRun"].(map[string]any)["manual"] == false
	})
	if msgs := a.storedMessages(conv); len(msgs) != 4 || msgs[3].Text != "Nothing new." {
		t.Fatalf("messages %+v", msgs)
	}
}

// SCHEDULE_TASK: the model is told the time zone and now; the user is always asked,
// with the prompt and the schedule in words; approved, the task is saved for the
// calling conversation and the model told.
func TestScheduleTaskAction(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "SCHEDULE_TASK", map[string]any{
			"prompt": "Check my inbox folder and summarise", "rrule": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"})}},
		llmtest.Turn{Text: []string{"Scheduled."}},
	)
	a := startMemory(t, `{}`, fake, nil)
	conv := a.conversation()
	st := a.streamQuery(conv, "every weekday at 9 check my inbox folder and summarise", "dialect=delta")
	ap := pausedFor(t, st)
	if ap["kind"] != "task" || ap["text"] != "Check my inbox folder and summarise" || ap["schedule"] != "every weekday at 09:00" {
		t.Fatalf("the card: %v", ap)
	}
	if body := string(fake.Requests()[0].Body); !strings.Contains(body, "Once: RFC 3339 with zone. Now: ") || !strings.Contains(body, "all schedules use this zone") {
		t.Fatalf("the model was not told the time: %s", body)
	}
	if code, out := a.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "approve"}); code != http.StatusOK {
		t.Fatalf("approve: %d %v", code, out)
	}
	st.all(t)
	if res := lastToolResult(t, fake); !strings.Contains(res, "scheduled (every weekday at 09:00)") {
		t.Fatalf("the model was told %q", res)
	}
	_, out := a.do("GET", "/api/tasks", nil)
	list, _ := out["tasks"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["conversationId"] != conv {
		t.Fatalf("tasks %v", out)
	}
}

// A task's own standing grant covers the calls of its runs only: the same command
// asks in a chat run and in another task's run, and runs unasked in its task's.
func TestTaskGrantsScoped(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	call := func() llmtest.Turn {
		return llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("", "RUN_SHELL", map[string]string{"command": "printf hi", "reason": "hi"})}}
	}
	fake.Script(call(), llmtest.Turn{Text: []string{"Denied."}}, call(), llmtest.Turn{Text: []string{"Printed."}}, call())
	a := startShell(t, t.TempDir(), fake)
	ws := a.dialWS()
	conv := a.conversation()

	paused, st := a.send(conv, "print hi", "run_paused")
	ap, _ := paused["approval"].(map[string]any)
	bases, _ := ap["bases"].([]any)
	if len(bases) != 1 {
		t.Fatalf("the chat run's card %v", ap)
	}
	base := bases[0].(string)
	if code, out := a.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "deny"}); code != http.StatusOK {
		t.Fatalf("deny: %d %v", code, out)
	}
	st.all(t)

	grants := []map[string]string{{"kind": "shell", "base": base}}
	code, out := a.do("POST", "/api/tasks", map[string]any{"prompt": "print hi", "cron": "0 9 * * *", "grants": grants})
	granted := taskOf(t, code, out, http.StatusCreated)["id"].(string)
	code, out = a.do("POST", "/api/tasks", map[string]any{"prompt": "print hi", "cron": "0 9 * * *"})
	other := taskOf(t, code, out, http.StatusCreated)["id"].(string)

	code, out = a.do("POST", "/api/tasks/"+granted+"/run", nil)
	taskOf(t, code, out, http.StatusAccepted)
	ws.waitFor(t, taskRunIs(granted, "done"))
	if res := lastToolResult(t, fake); !strings.Contains(res, "hi") || strings.Contains(res, "declined") {
		t.Fatalf("the granted task's command: %q", res)
	}
	code, out = a.do("POST", "/api/tasks/"+other+"/run", nil)
	taskOf(t, code, out, http.StatusAccepted)
	ws.waitFor(t, taskRunIs(other, "paused"))
	if code, out := a.do("POST", "/api/tasks/"+other+"/run", nil); code != http.StatusConflict {
		t.Fatalf("run now while paused: %d %v", code, out)
	}
}
