package api

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/compat"
)

// The images of /v1/messages and /v1/chat/completions reach Complete decoded on
// their user messages; a remote one is refused in each API's error shape; a body of
// 5 MiB of images passes the general 1 MiB cap, one over V1MaxBodyBytes is a 413.
func TestV1Images(t *testing.T) {
	img := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 5<<18) // 5 MiB
	b64 := base64.StdEncoding.EncodeToString(img)
	for _, c := range []struct {
		path, body string
	}{
		{"/v1/messages", `{"model":"Wisp","max_tokens":64,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + b64 + `"}},{"type":"text","text":"what is it?"}]}]}`},
		{"/v1/messages", `{"model":"Wisp","max_tokens":64,"stream":true,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + b64 + `"}},{"type":"text","text":"what is it?"}]}]}`},
		{"/v1/chat/completions", `{"model":"wisp","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64 + `"}},{"type":"text","text":"what is it?"}]}]}`},
		{"/v1/chat/completions", `{"model":"wisp","stream":true,"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64 + `"}},{"type":"text","text":"what is it?"}]}]}`},
	} {
		fake := &fakeChat{reply: []string{"A PNG."}}
		srv := newChatServer(t, fake)
		resp, got := post(t, srv, c.path, c.body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(got, "A PNG.") {
			t.Fatalf("%s: %d %.300s", c.path, resp.StatusCode, got)
		}
		if len(fake.completed) != 1 {
			t.Fatalf("%s: %d completions", c.path, len(fake.completed))
		}
		msgs := fake.completed[0]
		last := msgs[len(msgs)-1]
		if len(msgs) != 1 || last.Text != "what is it?" || len(last.Images) != 1 || last.Images[0].MIME != "image/png" ||
			!bytes.Equal(last.Images[0].Data, img) {
			t.Errorf("%s: the model was given %d messages, %q with %d images", c.path, len(msgs), last.Text, len(last.Images))
		}
	}

	fake := &fakeChat{reply: []string{"x"}}
	srv := newChatServer(t, fake)
	for _, c := range []struct {
		path, body, want string
		status           int
	}{
		{"/v1/messages", `{"model":"Wisp","max_tokens":64,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}]}]}`,
			`{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content.0: remote images are not fetched: send the image as base64 (a data URL)"}}`, 400},
		{"/v1/chat/completions", `{"model":"wisp","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`,
			`{"error":{"message":"messages[0].content[0]: remote images are not fetched: send the image as base64 (a data URL)","type":"invalid_request_error","param":null,"code":null}}`, 400},
		{"/v1/messages", `{"model":"Wisp","max_tokens":64,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%%%"}}]}]}`,
			`"message":"messages.0.content.0.source: the image's data is not base64"`, 400},
		{"/v1/chat/completions", `{"model":"wisp","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:text/html;base64,PGI+"}}]}]}`,
			`is not an image type read here`, 400},
	} {
		resp, got := post(t, srv, c.path, c.body)
		if resp.StatusCode != c.status || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %.300s, want %d %s", c.path, resp.StatusCode, got, c.status, c.want)
		}
	}
	// A body over the bound is refused by its length before it is read, in each API's
	// shape (served here without a connection: a client still sending would race the
	// early answer).
	for path, want := range map[string]string{"/v1/messages": `"type":"request_too_large"`, "/v1/chat/completions": `"type":"invalid_request_error"`} {
		req := httptest.NewRequest("POST", path, strings.NewReader("{}"))
		req.Host, req.ContentLength = "127.0.0.1", compat.MaxRequestBytes+1
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+testToken)
		rec := httptest.NewRecorder()
		srv.Config.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
	if len(fake.completed) != 0 {
		t.Errorf("a refused request reached the model: %d", len(fake.completed))
	}
}
