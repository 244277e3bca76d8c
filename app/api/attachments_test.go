package api

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

type fakeAttachments struct {
	upload    func(ctx context.Context, name, declaredType string, body io.Reader) (wire.Attachment, error)
	open      func(ctx context.Context, id string) (wire.Attachment, io.ReadSeekCloser, error)
	thumbnail func(ctx context.Context, id string) ([]byte, string, error)
	limit     int64
}

func (f fakeAttachments) Upload(ctx context.Context, name, declaredType string, body io.Reader) (wire.Attachment, error) {
	if f.upload == nil {
		return wire.Attachment{}, errNotFaked
	}
	return f.upload(ctx, name, declaredType, body)
}

func (f fakeAttachments) Open(ctx context.Context, id string) (wire.Attachment, io.ReadSeekCloser, error) {
	if f.open == nil {
		return wire.Attachment{}, nil, errNotFaked
	}
	return f.open(ctx, id)
}

func (f fakeAttachments) Thumbnail(ctx context.Context, id string) ([]byte, string, error) {
	if f.thumbnail == nil {
		return nil, "", errNotFaked
	}
	return f.thumbnail(ctx, id)
}

func (f fakeAttachments) UploadLimit() int64 { return f.limit }

type nopCloser struct{ io.ReadSeeker }

func (nopCloser) Close() error { return nil }

// uploadEcho answers an upload with what it received: the name, the declared type
// and the body's bytes as the attachment's SHA256 field.
func uploadEcho(calls *atomic.Int32) fakeAttachments {
	return fakeAttachments{limit: 1 << 20, upload: func(_ context.Context, name, declared string, body io.Reader) (wire.Attachment, error) {
		calls.Add(1)
		data, err := io.ReadAll(body)
		if err != nil {
			return wire.Attachment{}, err
		}
		return wire.Attachment{ID: "a1", Name: name, MIME: declared, SHA256: string(data), Size: int64(len(data)), Kind: wire.AttachmentFile}, nil
	}}
}

func TestUploadAttachment(t *testing.T) {
	var calls atomic.Int32
	s := serveAPI(t, "tok", Options{Attachments: uploadEcho(&calls)})
	got := s.call("POST", "/api/attachments?name=..%2Fa%20b.pdf", "the bytes", map[string]string{"Content-Type": "application/pdf"})
	att, _ := got.body["attachment"].(map[string]any)
	if got.status != 201 || att["name"] != "../a b.pdf" || att["mime"] != "application/pdf" || att["sha256"] != "the bytes" {
		t.Fatalf("upload: %d %v", got.status, got.body)
	}
	s.checkGuarded([]route{{"POST", "/api/attachments?name=x", "x"}})
	if calls.Load() != 1 {
		t.Errorf("%d uploads reached the service", calls.Load())
	}
}

// The types a page of another site can send without asking are refused unless the
// request carries X-Wisp-Upload: 1, which only a page allowed by CORS can add.
func TestUploadRefusesSimpleTypesWithoutTheHeader(t *testing.T) {
	var calls atomic.Int32
	s := serveAPI(t, "", Options{Attachments: uploadEcho(&calls)})
	cases := []struct {
		ctype, marker string
		want          int
	}{
		{"text/plain", "", 415},
		{"Text/Plain; charset=utf-8", "", 415},
		{"multipart/form-data; boundary=x", "", 415},
		{"application/x-www-form-urlencoded", "", 415},
		{"text/plain; garbage", "", 415}, // a browser may read it as text/plain
		{"text/plain", "yes", 415},
		{"text/plain", "1", 201},
		{"multipart/form-data; boundary=x", "1", 201},
		{"application/x-www-form-urlencoded", "1", 201},
		{"image/png", "", 201},
		{"application/octet-stream", "", 201},
		{"", "", 415},  // no Content-Type at all: a no-cors fetch of a typeless Blob
		{"", "1", 201}, // unless the page said so
	}
	want201 := int32(0)
	for _, c := range cases {
		h := map[string]string{"Content-Type": c.ctype, UploadHeader: c.marker}
		got := s.call("POST", "/api/attachments?name=f", "data", h)
		if got.status != c.want {
			t.Errorf("%q with %q: %d %v, want %d", c.ctype, c.marker, got.status, got.body, c.want)
		}
		if c.want == 415 && !strings.Contains(got.body["error"].(string), UploadHeader) {
			t.Errorf("%q: %v", c.ctype, got.body)
		}
		if c.want == 201 {
			want201++
		}
	}
	r, _ := http.NewRequest("POST", s.url+"/api/attachments?name=f", strings.NewReader("x"))
	r.Header.Add("Content-Type", "image/png")
	r.Header.Add("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 415 {
		t.Errorf("two types: %d", resp.StatusCode)
	}
	if calls.Load() != want201 {
		t.Errorf("%d uploads reached the service, want %d", calls.Load(), want201)
	}
	// Every other route still takes only JSON.
	if got := s.call("POST", "/api/agent/event", "x", map[string]string{"Content-Type": "image/png", UploadHeader: "1"}); got.status != 415 {
		t.Errorf("the upload exception leaks: %d", got.status)
	}
}

func TestUploadPreflightAllowsTheHeader(t *testing.T) {
	var calls atomic.Int32
	s := serveAPI(t, "", Options{Attachments: uploadEcho(&calls)})
	r, _ := http.NewRequest("OPTIONS", s.url+"/api/attachments", nil)
	r.Header.Set("Origin", s.url)
	r.Header.Set("Access-Control-Request-Method", "POST")
	r.Header.Set("Access-Control-Request-Headers", "x-wisp-upload, content-type")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), UploadHeader) {
		t.Errorf("allowed headers: %q", resp.Header.Get("Access-Control-Allow-Headers"))
	}
}

func TestUploadOverTheLimit(t *testing.T) {
	var calls atomic.Int32
	f := uploadEcho(&calls)
	f.limit = 10
	s := serveAPI(t, "", Options{Attachments: f})
	got := s.call("POST", "/api/attachments?name=f", strings.Repeat("x", 11), map[string]string{"Content-Type": "image/png"})
	if got.status != 413 || got.body["error"] != "the file is larger than 10 bytes, the limit for one attachment" {
		t.Errorf("Content-Length over the limit: %d %v", got.status, got.body)
	}
	if calls.Load() != 0 {
		t.Error("the service was called")
	}
	f.upload = func(context.Context, string, string, io.Reader) (wire.Attachment, error) {
		return wire.Attachment{}, fault.TooLarge.Errorf("the attachments take 2.0 GiB of the 2 GiB they may use")
	}
	s = serveAPI(t, "", Options{Attachments: f})
	if got := s.call("POST", "/api/attachments?name=f", "x", map[string]string{"Content-Type": "image/png"}); got.status != 413 {
		t.Errorf("the service's TooLarge: %d", got.status)
	}
}

func TestGetAttachment(t *testing.T) {
	files := map[string]wire.Attachment{
		"img":  {ID: "img", Name: "shot.png", MIME: "image/png", Kind: wire.AttachmentImage, SHA256: "abc"},
		"svg":  {ID: "svg", Name: "logo.svg", MIME: "image/svg+xml", Kind: wire.AttachmentText, SHA256: "def"},
		"html": {ID: "html", Name: "a \"b\"\u00e9;.png", MIME: "text/html; charset=utf-8", Kind: wire.AttachmentText, SHA256: "123"},
	}
	s := serveAPI(t, "tok", Options{Attachments: fakeAttachments{
		open: func(_ context.Context, id string) (wire.Attachment, io.ReadSeekCloser, error) {
			a, ok := files[id]
			if !ok {
				return a, nil, fault.NotFound.Errorf("attachment %s not found", id)
			}
			return a, nopCloser{strings.NewReader("0123456789")}, nil
		},
		thumbnail: func(_ context.Context, id string) ([]byte, string, error) {
			if id != "img" {
				return nil, "", fault.NotFound.Errorf("no thumbnail")
			}
			return []byte("thumb"), "image/jpeg", nil
		},
	}})
	want := map[string]string{
		"img":  "inline; filename*=UTF-8''shot.png",
		"svg":  "attachment; filename*=UTF-8''logo.svg",
		"html": "attachment; filename*=UTF-8''a%20%22b%22%C3%A9%3B.png",
	}
	for id, disp := range want {
		got := s.raw(t, "GET", "/api/attachments/"+id, nil)
		if got.status != 200 || got.body != "0123456789" || got.header.Get("Content-Disposition") != disp ||
			got.header.Get("Content-Type") != files[id].MIME || got.header.Get("ETag") != `"`+files[id].SHA256+`"` {
			t.Errorf("%s: %d %q %v", id, got.status, got.body, got.header)
		}
		checkSandboxed(t, id, got.header)
	}
	got := s.raw(t, "GET", "/api/attachments/img", map[string]string{"Range": "bytes=2-4"})
	if got.status != 206 || got.body != "234" {
		t.Errorf("range: %d %q", got.status, got.body)
	}
	got = s.raw(t, "GET", "/api/attachments/img", map[string]string{"If-None-Match": `"abc"`})
	if got.status != 304 {
		t.Errorf("If-None-Match: %d", got.status)
	}
	for _, path := range []string{"/api/attachments/nope", "/api/attachments/svg/thumbnail"} {
		got = s.raw(t, "GET", path, nil)
		if got.status != 404 || !strings.Contains(got.body, `"error"`) {
			t.Errorf("%s: %d %q", path, got.status, got.body)
		}
		checkSandboxed(t, path, got.header)
	}
	got = s.raw(t, "GET", "/api/attachments/img", map[string]string{"Authorization": ""})
	if got.status != 401 {
		t.Errorf("without the token: %d", got.status)
	}
	checkSandboxed(t, "401", got.header)
	got = s.raw(t, "GET", "/api/attachments/img/thumbnail", nil)
	if got.status != 200 || got.body != "thumb" || got.header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("thumbnail: %d %q %v", got.status, got.body, got.header)
	}
	checkSandboxed(t, "thumbnail", got.header)
	s.checkGuarded([]route{{"GET", "/api/attachments/img", ""}, {"GET", "/api/attachments/img/thumbnail", ""}})
}

func checkSandboxed(t *testing.T, what string, h http.Header) {
	t.Helper()
	if h.Get("Content-Security-Policy") != "sandbox" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: CSP %q, nosniff %q", what, h.Get("Content-Security-Policy"), h.Get("X-Content-Type-Options"))
	}
}

type rawAnswer struct {
	status int
	header http.Header
	body   string
}

// raw sends a request with the token and header's fields and reads the answer as
// it is.
func (s *served) raw(t *testing.T, method, path string, header map[string]string) rawAnswer {
	t.Helper()
	r, _ := http.NewRequest(method, s.url+path, nil)
	if s.token != "" {
		r.Header.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return rawAnswer{resp.StatusCode, resp.Header, b.String()}
}
