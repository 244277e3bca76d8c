package api

import (
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

// A message's attachments reach chat as ids; an edit tells "keep the edited
// message's" (absent) from "none" (an empty list); the old images field is refused
// with where to go instead; the service's refusals keep their status.
func TestChatBodiesCarryAttachments(t *testing.T) {
	fake := &fakeChat{events: musicRun}
	srv := newChatServer(t, fake)
	for _, tt := range []struct {
		path, body string
		want       []string // nil: absent
	}{
		{"/api/conversations/c1/messages", `{"text":"look","attachments":["a1","a2"]}`, []string{"a1", "a2"}},
		{"/api/conversations/c1/messages/stream", `{"attachments":["a1"]}`, []string{"a1"}},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"again"}`, nil},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"again","attachments":[]}`, []string{}},
		{"/api/conversations/c1/messages/m1/edit", `{"text":"again","attachments":["a3"]}`, []string{"a3"}},
	} {
		n := len(fake.inputs)
		if resp, body := post(t, srv, tt.path, tt.body); resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", tt.path, tt.body, resp.StatusCode, body)
		}
		if len(fake.inputs) != n+1 {
			t.Fatalf("%s: %d inputs", tt.path, len(fake.inputs))
		}
		got := fake.inputs[n].Attachments
		if (got == nil) != (tt.want == nil) || !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: attachments %#v, want %#v", tt.path, tt.body, got, tt.want)
		}
	}

	n := len(fake.inputs)
	resp, body := post(t, srv, "/api/conversations/c1/messages/stream", `{"text":"x","images":["data:image/png;base64,AAAA"]}`)
	if resp.StatusCode != 400 || !strings.Contains(body, "POST /api/attachments") || !strings.Contains(body, "attachments") {
		t.Errorf("images: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, srv, "/api/conversations/c1/messages/stream", `{"text":"x","images":[]}`); resp.StatusCode != 200 {
		t.Errorf("an empty images list: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(t, srv, "/api/conversations/c1/messages/stream", `{"text":"x","attachments":"a1"}`); resp.StatusCode != 400 {
		t.Errorf("attachments not a list: %d %s", resp.StatusCode, body)
	}
	if len(fake.inputs) != n+1 {
		t.Errorf("refused bodies reached chat: %d inputs", len(fake.inputs)-n)
	}

	for _, tt := range []struct {
		err    error
		status int
	}{
		{fault.TooLarge.Errorf("a message takes at most 10 files"), 413},
		{fault.Invalid.Errorf("attachment nope not found"), 400},
		{fault.Invalid.Errorf("attachments are not available"), 400},
	} {
		fake.sendErr = tt.err
		resp, body := post(t, srv, "/api/conversations/c1/messages/stream", `{"text":"x","attachments":["a1"]}`)
		if resp.StatusCode != tt.status || !strings.Contains(body, tt.err.Error()) {
			t.Errorf("%v: %d %s, want %d", tt.err, resp.StatusCode, body, tt.status)
		}
	}
}
