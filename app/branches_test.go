package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// treeMessage is a message of a page with its place in the tree.
type treeMessage struct {
	ID, Role, Text, Status, RunID string
	ParentID                      *string
	SiblingIDs                    []string
	SiblingIndex, Depth           int
}

type page struct {
	Messages           []treeMessage
	HasOlder, HasNewer bool
	BranchLength       int
	DisplayMessages    []struct{ ID, RunID string }
}

func (p page) texts() []string {
	out := []string{}
	for _, m := range p.Messages {
		out = append(out, m.Text)
	}
	return out
}

// page reads GET …/messages?query.
func (c *chatApp) page(conv, query string) page {
	c.t.Helper()
	var p page
	if code := c.call("GET", "/api/conversations/"+conv+"/messages?"+query, nil, &p); code != 200 {
		c.t.Fatalf("messages ?%s: %d", query, code)
	}
	return p
}

// post streams a POST with a JSON body (nil: none) and returns the open stream.
func (c *chatApp) post(path string, body any) *sseStream {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	c.t.Cleanup(cancel)
	var rd *bytes.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", c.URL()+path, rd)
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return &sseStream{resp: resp, rd: bufio.NewReader(resp.Body)}
}

func (c *chatApp) edit(conv, messageID, text string) *sseStream {
	c.t.Helper()
	return c.post("/api/conversations/"+conv+"/messages/"+messageID+"/edit?dialect=delta", map[string]string{"text": text})
}

func (c *chatApp) regenerate(conv, messageID string) *sseStream {
	c.t.Helper()
	return c.post("/api/conversations/"+conv+"/messages/"+messageID+"/regenerate?dialect=delta", nil)
}

// setBranch shows the branch through messageID and returns the page it answers.
func (c *chatApp) setBranch(conv, messageID string) page {
	c.t.Helper()
	var p page
	if code := c.call("PUT", "/api/conversations/"+conv+"/branch", map[string]string{"messageId": messageID}, &p); code != 200 {
		c.t.Fatalf("branch to %s: %d", messageID, code)
	}
	return p
}

// said is what the model was last asked: the user and assistant turns, "role: text".
func said(fake *llmtest.Server) []string {
	reqs := fake.Requests()
	out := []string{}
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleUser || m.Role == llm.RoleAssistant {
			out = append(out, string(m.Role)+": "+m.Text)
		}
	}
	return out
}

func mustStatus(t *testing.T, what string, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: %d, want %d", what, got, want)
	}
}

// Edit and regenerate make siblings, the model sees only the branch it answers, and
// a branch switch shows the other branch (every window is told) and answers it.
func TestEditRegenerateAndSwitch(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(llmtest.Turn{Text: []string{"A1"}}, llmtest.Turn{Text: []string{"A2"}},
		llmtest.Turn{Text: []string{"B2"}}, llmtest.Turn{Text: []string{"C2"}}, llmtest.Turn{Text: []string{"A3"}})
	conv := c.newConversation()
	c.stream(conv, "q1").all(t)
	c.stream(conv, "q2").all(t)
	first := c.page(conv, "")
	if got := first.texts(); !reflect.DeepEqual(got, []string{"q1", "A1", "q2", "A2"}) || first.BranchLength != 4 {
		t.Fatalf("before: %v (%d)", got, first.BranchLength)
	}
	q1, a1, q2, a2 := first.Messages[0], first.Messages[1], first.Messages[2], first.Messages[3]
	if q1.ParentID != nil || *a2.ParentID != q2.ID || a2.Depth != 3 || !reflect.DeepEqual(q2.SiblingIDs, []string{q2.ID}) {
		t.Fatalf("one branch: %+v", first.Messages)
	}

	// Edit q2: a sibling, answered with the branch above it.
	st := c.edit(conv, q2.ID, "q2 better")
	newID := st.resp.Header.Get("X-Wisp-Message-Id")
	if st.resp.StatusCode != 200 || newID == "" || st.resp.Header.Get("X-Wisp-Run-Id") == "" {
		t.Fatalf("edit: %d %v", st.resp.StatusCode, st.resp.Header)
	}
	st.all(t)
	if got, want := said(c.fake), []string{"user: q1", "assistant: A1", "user: q2 better"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the edit's model saw %q, want %q", got, want)
	}
	edited := c.page(conv, "")
	if got := edited.texts(); !reflect.DeepEqual(got, []string{"q1", "A1", "q2 better", "B2"}) {
		t.Fatalf("after the edit: %v", got)
	}
	if m := edited.Messages[2]; m.ID != newID || *m.ParentID != a1.ID || !reflect.DeepEqual(m.SiblingIDs, []string{q2.ID, newID}) || m.SiblingIndex != 1 {
		t.Fatalf("the edited message %+v", m)
	}
	b2 := edited.Messages[3]

	// Regenerate B2: a sibling of it, answering "q2 better" again.
	st = c.regenerate(conv, b2.ID)
	replyID := st.resp.Header.Get("X-Wisp-Message-Id")
	st.all(t)
	if got, want := said(c.fake), []string{"user: q1", "assistant: A1", "user: q2 better"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the regenerate's model saw %q, want %q", got, want)
	}
	regen := c.page(conv, "")
	if got := regen.texts(); !reflect.DeepEqual(got, []string{"q1", "A1", "q2 better", "C2"}) {
		t.Fatalf("after the regenerate: %v", got)
	}
	if m := regen.Messages[3]; m.ID != replyID || !reflect.DeepEqual(m.SiblingIDs, []string{b2.ID, replyID}) || m.SiblingIndex != 1 {
		t.Fatalf("the regenerated reply %+v (header %s)", m, replyID)
	}

	// Back to the first branch: answered, and told to every window.
	ws := c.dialWS()
	back := c.setBranch(conv, q2.ID)
	if got := back.texts(); !reflect.DeepEqual(got, []string{"q1", "A1", "q2", "A2"}) || back.Messages[2].SiblingIndex != 0 {
		t.Fatalf("branch switch answered %v", got)
	}
	frame := ws.waitFor(t, ofType("conversation-branch"))
	if frame["conversationId"] != conv || frame["leafId"] != a2.ID {
		t.Fatalf("frame %v", frame)
	}
	// A send goes on from the branch shown.
	c.stream(conv, "q3").all(t)
	if got, want := said(c.fake), []string{"user: q1", "assistant: A1", "user: q2", "assistant: A2", "user: q3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the send's model saw %q, want %q", got, want)
	}
	// The branch through the edit keeps its newest reply.
	if got := c.setBranch(conv, newID).texts(); !reflect.DeepEqual(got, []string{"q1", "A1", "q2 better", "C2"}) {
		t.Fatalf("back to the edit: %v", got)
	}
}

// Ids of the wrong kind, of another conversation or of nothing, and bad texts and
// pages, are refused and write nothing.
func TestBranchRequestsRefused(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(llmtest.Turn{Text: []string{"A1"}}, llmtest.Turn{Text: []string{"O1"}})
	conv, other := c.newConversation(), c.newConversation()
	c.stream(conv, "q1").all(t)
	c.stream(other, "o1").all(t)
	mine, theirs := c.page(conv, ""), c.page(other, "")
	q1, a1, o1 := mine.Messages[0].ID, mine.Messages[1].ID, theirs.Messages[0].ID
	asked := len(c.fake.Requests())
	base := "/api/conversations/" + conv
	for _, tt := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"POST", base + "/messages/" + a1 + "/edit", map[string]string{"text": "x"}, 400},
		{"POST", base + "/messages/" + q1 + "/regenerate", nil, 400},
		{"POST", base + "/messages/" + o1 + "/edit", map[string]string{"text": "x"}, 404},
		{"POST", base + "/messages/nope/edit", map[string]string{"text": "x"}, 404},
		{"POST", base + "/messages/nope/regenerate", nil, 404},
		{"POST", "/api/conversations/nope/messages/" + q1 + "/edit", map[string]string{"text": "x"}, 404},
		{"POST", base + "/messages/" + q1 + "/edit", map[string]string{"text": "  "}, 400},
		{"POST", base + "/messages/" + q1 + "/edit", map[string]string{"text": strings.Repeat("é", 32001)}, 400},
		{"POST", base + "/messages/" + q1 + "/edit", map[string]string{"text": strings.Repeat("x", 10<<20)}, 413},
		{"PUT", base + "/branch", map[string]string{"messageId": o1}, 404},
		{"PUT", base + "/branch", map[string]string{"messageId": "nope"}, 404},
		{"PUT", base + "/branch", map[string]string{}, 400},
		{"GET", base + "/messages?before=" + o1, nil, 404},
		{"GET", base + "/messages?limit=501", nil, 400},
		{"GET", base + "/messages?limit=0", nil, 400},
		{"GET", base + "/messages?before=" + q1 + "&after=" + q1, nil, 400},
	} {
		var out map[string]any
		if code := c.call(tt.method, tt.path, tt.body, &out); code != tt.status {
			t.Errorf("%s %s: %d %v, want %d", tt.method, tt.path, code, out, tt.status)
		}
	}
	if len(c.fake.Requests()) != asked {
		t.Fatal("a refused request reached the model")
	}
	if got := c.page(conv, "").texts(); !reflect.DeepEqual(got, []string{"q1", "A1"}) {
		t.Fatalf("after refused requests: %v", got)
	}
	if got := c.page(other, "").texts(); !reflect.DeepEqual(got, []string{"o1", "O1"}) {
		t.Fatalf("the other conversation: %v", got)
	}
}

// While a reply streams, another turn or a branch switch in its conversation is a
// 409; a stopped run frees it.
func TestBranchRequestsWhileStreaming(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(llmtest.Turn{Text: []string{"A1"}}, llmtest.Turn{Hang: true})
	conv := c.newConversation()
	c.stream(conv, "q1").all(t)
	q1 := c.page(conv, "").Messages[0].ID
	st := c.stream(conv, "q2")
	runID := st.resp.Header.Get("X-Wisp-Run-Id")
	base := "/api/conversations/" + conv
	var out map[string]any
	mustStatus(t, "edit while streaming", c.call("POST", base+"/messages/"+q1+"/edit", map[string]string{"text": "x"}, &out), 409)
	mustStatus(t, "branch while streaming", c.call("PUT", base+"/branch", map[string]string{"messageId": q1}, &out), 409)
	// The live reply is on the newest page, after its question.
	live := c.page(conv, "")
	if n := len(live.Messages); n != 4 || live.Messages[3].Status != "active" || live.Messages[3].RunID != runID ||
		*live.Messages[3].ParentID != live.Messages[2].ID || live.BranchLength != 4 {
		t.Fatalf("the page while streaming %+v", live)
	}
	mustStatus(t, "stop", c.call("POST", "/api/runs/"+runID+"/cancel", nil, &out), 200)
	c.waitRun(runID)
	if got := c.setBranch(conv, q1).texts(); len(got) != 4 {
		t.Fatalf("after the stop: %v", got)
	}
}

// A page of a long conversation: the newest, older pages to the first message, and
// the page around a message far up.
func TestPagesOfALongConversation(t *testing.T) {
	dir := t.TempDir()
	c := startChat(t, dir)
	conv := c.newConversation()
	c.Stop()
	st, err := store.Open(context.Background(), dir+"/wisp.db")
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	ctx := context.Background()
	if err := st.InTx(ctx, func(tx *store.Tx) error {
		for i := range n {
			role := map[bool]string{true: "user", false: "assistant"}[i%2 == 0]
			if _, err := tx.AddMessage(ctx, store.Message{ID: fmt.Sprintf("m%d", i), ConversationID: conv, Role: role,
				Text: fmt.Sprintf("message %d", i), CreatedAt: time.UnixMilli(int64(1000 + i))}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	b := startChatWith(t, dir, c.fake)
	newest := b.page(conv, "")
	if len(newest.Messages) != 100 || newest.Messages[99].ID != fmt.Sprintf("m%d", n-1) || !newest.HasOlder || newest.HasNewer || newest.BranchLength != n {
		t.Fatalf("newest page: %d messages, older %v newer %v length %d", len(newest.Messages), newest.HasOlder, newest.HasNewer, newest.BranchLength)
	}
	seen, p := len(newest.Messages), newest
	for p.HasOlder {
		p = b.page(conv, "limit=500&before="+p.Messages[0].ID)
		seen += len(p.Messages)
	}
	if seen != n || p.Messages[0].ID != "m0" {
		t.Fatalf("scrolled up through %d messages to %s, want %d to m0", seen, p.Messages[0].ID, n)
	}
	around := b.page(conv, "limit=10&around=m300")
	if around.Messages[5].ID != "m300" || !around.HasOlder || !around.HasNewer {
		t.Fatalf("around m300: %+v", around.Messages)
	}
	after := b.page(conv, "limit=3&after=m300")
	if got := after.texts(); !reflect.DeepEqual(got, []string{"message 301", "message 302", "message 303"}) {
		t.Fatalf("after m300: %v", got)
	}
}

// An edit while an approval is paused on another branch: the edit's run streams and
// ends; deciding the approval then resumes the paused run on its own branch, its reply
// lands there, and the branch shown stays.
func TestEditWhileAnApprovalIsPaused(t *testing.T) {
	a, conv, paused, st := pausedShell(t, t.TempDir())
	a.fake.Handle(func(r llmtest.Received) bool { return lastUserText(r) == "just say hi" },
		func(llmtest.Received) llmtest.Turn { return llmtest.Turn{Text: []string{"Hi!"}} })
	u1 := a.page(conv, "").Messages[0]
	approvalID := paused["approvalId"].(string)
	_, pending := a.do("GET", "/api/approvals", nil)
	if got := pending["approvals"].([]any)[0].(map[string]any)["messageId"]; got != u1.ID {
		t.Fatalf("the approval's message %v, want %s", got, u1.ID)
	}
	// Its question is the end of the branch shown: a send there waits for the approval.
	code, _ := a.do("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": "and?"})
	mustStatus(t, "a send after a paused question", code, 409)

	edit := a.edit(conv, u1.ID, "just say hi")
	if edit.resp.StatusCode != 200 {
		t.Fatalf("edit while paused: %d", edit.resp.StatusCode)
	}
	edit.all(t)
	shown := a.page(conv, "")
	if got := shown.texts(); !reflect.DeepEqual(got, []string{"just say hi", "Hi!"}) || !reflect.DeepEqual(shown.Messages[0].SiblingIDs, []string{u1.ID, shown.Messages[0].ID}) {
		t.Fatalf("the edited branch: %v", shown.Messages)
	}

	if code, out := a.do("POST", "/api/approvals/"+approvalID, map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	st.all(t) // the paused run's stream goes on to its end
	if got := a.page(conv, "").texts(); !reflect.DeepEqual(got, []string{"just say hi", "Hi!"}) {
		t.Fatalf("the branch shown moved: %v", got)
	}
	if got := said(a.fake); len(got) != 2 || got[0] != "user: say hi in the shell" {
		t.Fatalf("the resumed run's model saw %q", got)
	}
	other := a.setBranch(conv, u1.ID)
	if n := len(other.Messages); n != 2 || !strings.HasSuffix(other.Messages[1].Text, "It printed hi.") || *other.Messages[1].ParentID != u1.ID {
		t.Fatalf("the paused run's branch: %+v", other.Messages)
	}
}

func lastUserText(r llmtest.Received) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			return r.Messages[i].Text
		}
	}
	return ""
}

// A restart cuts an edit's run: the next start closes it and the new branch keeps
// the partial reply.
func TestRestartCutsAnEditsRun(t *testing.T) {
	dir := t.TempDir()
	c := startChat(t, dir)
	c.fake.Script(llmtest.Turn{Text: []string{"A1"}},
		llmtest.Turn{Text: []string{"Partial ", "answer", " never finished"}, Delay: 300 * time.Millisecond})
	conv := c.newConversation()
	c.stream(conv, "q1").all(t)
	q1 := c.page(conv, "").Messages[0].ID
	st := c.edit(conv, q1, "q1 again")
	newID := st.resp.Header.Get("X-Wisp-Message-Id")
	for {
		f, ok := st.next(t)
		if !ok {
			t.Fatal("stream ended early")
		}
		if f.typ() == "token" {
			break
		}
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	b := startChatWith(t, dir, c.fake)
	p := b.page(conv, "")
	if len(p.Messages) != 2 || p.Messages[0].ID != newID || p.Messages[1].Status != "interrupted" ||
		!strings.HasPrefix(p.Messages[1].Text, "Partial") || !reflect.DeepEqual(p.Messages[0].SiblingIDs, []string{q1, newID}) {
		t.Fatalf("after the restart: %+v", p.Messages)
	}
	if got := b.setBranch(conv, q1).texts(); !reflect.DeepEqual(got, []string{"q1", "A1"}) {
		t.Fatalf("the first branch: %v", got)
	}
}

// A run paused on an edited branch is adopted after a restart and, once approved,
// goes on with that branch's history and replies on it, the branch shown staying.
func TestPausedEditSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(append([]llmtest.Turn{{Text: []string{"Fine."}}}, shellTurns()...)...)
	a := startShell(t, dir, fake)
	conv := a.conversation()
	_, done := a.send(conv, "hello", "done")
	done.all(t)
	hello := a.page(conv, "").Messages[0].ID
	edit := a.edit(conv, hello, "say hi in the shell")
	editID := edit.resp.Header.Get("X-Wisp-Message-Id")
	for {
		f, ok := edit.next(t)
		if !ok {
			t.Fatal("the edit's stream ended before its pause")
		}
		if f.typ() == "run_paused" {
			break
		}
	}
	a.Stop()

	b := startShell(t, dir, fake)
	_, pending := b.do("GET", "/api/approvals", nil)
	list := pending["approvals"].([]any)
	ap := list[0].(map[string]any)
	if len(list) != 1 || ap["messageId"] != editID {
		t.Fatalf("pending after the restart: %v", pending)
	}
	runID := ap["runId"].(string)
	if got := b.setBranch(conv, hello).texts(); !reflect.DeepEqual(got, []string{"hello", "Fine."}) {
		t.Fatalf("the first branch: %v", got)
	}
	if code, out := b.do("POST", "/api/approvals/"+ap["id"].(string), map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	if st := b.endedStatus(runID); st != "ended" {
		t.Fatalf("the resumed run ended %s", st)
	}
	if got := said(fake); len(got) != 2 || got[0] != "user: say hi in the shell" {
		t.Fatalf("the resumed run's model saw %q, want the edited branch only", got)
	}
	if got := b.page(conv, "").texts(); !reflect.DeepEqual(got, []string{"hello", "Fine."}) {
		t.Fatalf("the branch shown moved: %v", got)
	}
	edited := b.setBranch(conv, editID)
	if n := len(edited.Messages); n != 2 || !strings.HasSuffix(edited.Messages[1].Text, "It printed hi.") {
		t.Fatalf("the edited branch: %+v", edited.Messages)
	}
	if len(edited.DisplayMessages) == 0 {
		t.Fatal("the edited branch's page has no display messages of its run")
	}
}
