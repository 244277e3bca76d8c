package api

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// GET …/messages hands the page's parameters to the service, refuses bad ones
// before it, and answers lists, never null.
func TestMessagesPageParams(t *testing.T) {
	var got []chat.Page
	s := serveAPI(t, "", Options{Conversations: fakeConversations{
		messages: func(_ context.Context, id string, p chat.Page) (wire.MessageList, error) {
			got = append(got, p)
			switch p.Before {
			case "gone":
				return wire.MessageList{}, fault.NotFound.Errorf("message not found on the branch shown")
			case "two":
				return wire.MessageList{}, fault.Invalid.Errorf("give one of before, after and around")
			}
			return wire.MessageList{HasOlder: true, BranchLength: 7}, nil
		},
	}})
	for _, q := range []string{"limit=0", "limit=501", "limit=abc", "limit=-1", "limit="} {
		if res := s.call("GET", "/api/conversations/c1/messages?"+q, nil, nil); res.status != 400 ||
			!strings.Contains(str(res.body["error"]), "limit must be") {
			t.Errorf("?%s: %d %v", q, res.status, res.body)
		}
	}
	if len(got) != 0 {
		t.Fatalf("refused pages reached the service: %v", got)
	}
	res := s.call("GET", "/api/conversations/c1/messages?limit=500&around=m9", nil, nil)
	if res.status != 200 || res.body["hasOlder"] != true || res.body["branchLength"] != 7.0 ||
		res.body["messages"] == nil || res.body["displayMessages"] == nil {
		t.Fatalf("a page: %d %v", res.status, res.body)
	}
	s.call("GET", "/api/conversations/c1/messages", nil, nil)
	s.call("GET", "/api/conversations/c1/messages?before=b&after=a&limit=1", nil, nil)
	want := []chat.Page{{Around: "m9", Limit: 500}, {}, {Before: "b", After: "a", Limit: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %+v, want %+v", got, want)
	}
	if res := s.call("GET", "/api/conversations/c1/messages?before=gone", nil, nil); res.status != 404 {
		t.Errorf("a message not on the branch: %d %v", res.status, res.body)
	}
	if res := s.call("GET", "/api/conversations/c1/messages?before=two", nil, nil); res.status != 400 {
		t.Errorf("two cursors: %d %v", res.status, res.body)
	}
}

func TestPutBranch(t *testing.T) {
	var got []string
	s := serveAPI(t, "", Options{Conversations: fakeConversations{
		setBranch: func(_ context.Context, id, messageID string) (wire.MessageList, error) {
			got = append(got, id+"/"+messageID)
			switch messageID {
			case "busy":
				return wire.MessageList{}, fault.Conflict.Errorf("a reply is still being written")
			case "nope":
				return wire.MessageList{}, fault.NotFound.Errorf("message not found in this conversation")
			case "":
				return wire.MessageList{}, fault.Invalid.Errorf("messageId is required")
			}
			return wire.MessageList{Messages: []wire.Message{{ID: "m2"}}, BranchLength: 2}, nil
		},
	}})
	res := s.call("PUT", "/api/conversations/c1/branch", map[string]string{"messageId": "m2"}, nil)
	if res.status != 200 || res.body["branchLength"] != 2.0 || len(res.body["messages"].([]any)) != 1 {
		t.Fatalf("switch: %d %v", res.status, res.body)
	}
	for body, status := range map[string]int{`{"messageId":"busy"}`: 409, `{"messageId":"nope"}`: 404, `{}`: 400, `[`: 400} {
		if res := s.call("PUT", "/api/conversations/c1/branch", body, nil); res.status != status {
			t.Errorf("%s: %d %v, want %d", body, res.status, res.body, status)
		}
	}
	if res := s.call("PUT", "/api/conversations/c1/branch", nil, nil); res.status != 400 {
		t.Errorf("no body: %d", res.status)
	}
	slices.Sort(got)
	if want := []string{"c1/", "c1/busy", "c1/m2", "c1/nope"}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
}

// Edit and regenerate stream as POST …/messages/stream does, in every dialect, with
// the run's id and the new message's.
func TestEditAndRegenerateStream(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	for _, tt := range []struct{ path, body, msgID, want string }{
		{"/api/conversations/c1/messages/m1/edit", `{"text":"again"}`, "new-user", "edit c1/m1: again"},
		{"/api/conversations/c1/messages/m2/edit?dialect=delta", `{"text":"more"}`, "new-user", "edit c1/m2: more"},
		{"/api/conversations/c1/messages/a1/regenerate", ``, "new-reply", "regenerate c1/a1"},
		{"/api/conversations/c1/messages/a1/regenerate?dialect=delta", `{}`, "new-reply", "regenerate c1/a1"},
	} {
		resp, body := post(t, srv, tt.path, tt.body)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("%s: %d %q", tt.path, resp.StatusCode, body)
		}
		if resp.Header.Get("X-Wisp-Run-Id") != "run1" || resp.Header.Get("X-Wisp-Message-Id") != tt.msgID {
			t.Errorf("%s: headers %v", tt.path, resp.Header)
		}
		events := readSSE(t, body)
		if len(events) == 0 || !strings.Contains(events[len(events)-1].data, "Enjoy!") {
			t.Errorf("%s: stream %v", tt.path, events)
		}
		if fake.turns[len(fake.turns)-1] != tt.want {
			t.Errorf("%s: called %q, want %q", tt.path, fake.turns[len(fake.turns)-1], tt.want)
		}
	}
	n := len(fake.turns)
	for _, tt := range []struct {
		path, body string
		status     int
	}{
		{"/api/conversations/c1/messages/m1/edit?dialect=nope", `{"text":"x"}`, 400},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"x","images":[1]}`, 400},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"x","clientMessageId":"` + strings.Repeat("x", 129) + `"}`, 400},
		{"/api/conversations/c1/messages/m1/edit", `{"text":`, 400},
		{"/api/conversations/c1/messages/m1/edit", ``, 400},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"` + strings.Repeat("x", 10<<20) + `"}`, 413},
		{"/api/conversations/c1/messages/a1/regenerate", `[`, 400},
	} {
		if resp, body := post(t, srv, tt.path, tt.body); resp.StatusCode != tt.status {
			t.Errorf("%s %.40s: %d %s, want %d", tt.path, tt.body, resp.StatusCode, body, tt.status)
		}
	}
	if len(fake.turns) != n {
		t.Errorf("refused requests reached the service: %v", fake.turns[n:])
	}
	for kind, status := range map[fault.Kind]int{fault.NotFound: 404, fault.Conflict: 409, fault.Invalid: 400} {
		fake.turnErr = kind.Errorf("no")
		for _, path := range []string{"/api/conversations/c1/messages/m1/edit", "/api/conversations/c1/messages/a1/regenerate"} {
			if resp, body := post(t, srv, path, `{"text":"x"}`); resp.StatusCode != status {
				t.Errorf("%s with a %v error: %d %s, want %d", path, kind, resp.StatusCode, body, status)
			}
		}
	}
}
