package compat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

// png is the start of a PNG file: compat does not read the pixels (the attachment
// service fits them), only the base64.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

var png64 = base64.StdEncoding.EncodeToString(png)

func anthropicImage(mediaType, data string) string {
	return fmt.Sprintf(`{"type":"image","source":{"type":"base64","media_type":%q,"data":%q}}`, mediaType, data)
}

func openAIImage(url string) string {
	return fmt.Sprintf(`{"type":"image_url","image_url":{"url":%q,"detail":"high"}}`, url)
}

// Both APIs' images become the user message's llm.Images, in order, in the history
// and in the new message; what is refused says why, with the status and type of
// each API.
func TestImages(t *testing.T) {
	many := strings.Repeat(anthropicImage("image/png", png64)+",", MaxImages) + anthropicImage("image/png", png64)
	manyOAI := strings.Repeat(openAIImage("data:image/png;base64,"+png64)+",", MaxImages) + openAIImage("data:image/png;base64,"+png64)
	for _, c := range []struct {
		name, anthropic, openai string // the user message's content blocks/parts
		status                  int    // 0: accepted
		err                     string // part of the refusal
		images                  int
	}{
		{name: "one image and text", anthropic: anthropicImage("image/png", png64) + `,{"type":"text","text":"what is it?"}`,
			openai: openAIImage("data:image/png;base64,"+png64) + `,{"type":"text","text":"what is it?"}`, images: 1},
		{name: "image alone", anthropic: anthropicImage("image/png", png64), openai: openAIImage("data:image/png;base64," + png64), images: 1},
		{name: "jpg alias, no padding", anthropic: anthropicImage("image/jpg", strings.TrimRight(png64, "=")),
			openai: openAIImage("DATA:image/JPG;BASE64," + strings.TrimRight(png64, "=")), images: 1},
		{name: "remote", anthropic: `{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}`,
			openai: openAIImage("https://example.com/a.png"), status: 400, err: remoteImage},
		{name: "remote http", anthropic: `{"type":"image","source":{"type":"url","url":"http://10.0.0.1/a.png"}}`,
			openai: openAIImage("HTTP://10.0.0.1/a.png"), status: 400, err: remoteImage},
		{name: "not base64", anthropic: anthropicImage("image/png", "!!!!"), openai: openAIImage("data:image/png;base64,!!!!"),
			status: 400, err: "is not base64"},
		{name: "empty data", anthropic: anthropicImage("image/png", ""), openai: openAIImage("data:image/png;base64,"),
			status: 400, err: "is not base64"},
		{name: "unknown type", anthropic: anthropicImage("image/tiff", png64), openai: openAIImage("data:image/svg+xml;base64," + png64),
			status: 400, err: "is not an image type read here"},
		{name: "not a data URL", anthropic: `{"type":"image","source":{"type":"file","file_id":"f"}}`,
			openai: openAIImage("data:image/png," + png64), status: 400, err: "not"},
		{name: "no source", anthropic: `{"type":"image"}`, openai: `{"type":"image_url"}`, status: 400, err: "is required"},
		{name: "too many", anthropic: many, openai: manyOAI, status: 400, err: "at most 100 images"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a AnthropicRequest
			body := `{"max_tokens":5,"messages":[{"role":"user","content":[` + c.anthropic + `]}]}`
			if err := json.Unmarshal([]byte(body), &a); err != nil {
				t.Fatal(err)
			}
			_, msg, err := a.Turn()
			check(t, "anthropic", err, msg, c.status, c.err, c.images)
			if c.status != 0 && err != nil {
				if got := AnthropicError(c.status, err.Error(), err); got.Error.Type != map[int]string{400: "invalid_request_error", 413: "request_too_large"}[c.status] {
					t.Errorf("anthropic error type %q", got.Error.Type)
				}
			}
			var o OpenAIRequest
			body = `{"model":"wisp","messages":[{"role":"user","content":[` + c.openai + `]}]}`
			if err := json.Unmarshal([]byte(body), &o); err != nil {
				t.Fatal(err)
			}
			_, msg, _, err = o.Turn([]string{"wisp"})
			check(t, "openai", err, msg, c.status, c.err, c.images)
		})
	}
}

// The bytes bounds: one image over 20 MiB is refused before it is decoded, and the
// image that takes a request's over 50 MiB; both are a 413 request_too_large.
func TestImageBounds(t *testing.T) {
	big := strings.Repeat("A", (MaxImageBytes/3+1)*4) // 20 MiB and 3 bytes once decoded
	var b imageBudget
	_, err := b.decode("x", "image/png", big)
	var ce *Error
	if !errors.As(err, &ce) || ce.Status != 413 || ce.Type != "request_too_large" || ce.Msg != "x: an image may be at most 20 MiB" {
		t.Errorf("too big: %v", err)
	}
	if img, err := b.decode("x", "image/png", big[:len(big)-4]); err != nil || len(img.Data) != (len(big)-4)/4*3 || len(img.Data) < MaxImageBytes-3 {
		t.Errorf("just under 20 MiB: %v", err)
	}
	b = imageBudget{bytes: MaxImagesBytes - int64(len(png))}
	if _, err := b.decode("x", "image/png", png64); err != nil {
		t.Errorf("50 MiB in all: %v", err)
	}
	_, err = b.decode("y", "image/png", png64)
	if !errors.As(err, &ce) || ce.Status != 413 || ce.Msg != "y: the images of a request may be at most 50 MiB in all" {
		t.Errorf("over 50 MiB in all: %v", err)
	}
}

func check(t *testing.T, api string, err error, msg llm.Message, status int, want string, images int) {
	t.Helper()
	var ce *Error
	switch {
	case status == 0 && err != nil:
		t.Errorf("%s: %v", api, err)
	case status == 0 && len(msg.Images) != images:
		t.Errorf("%s: %d images, want %d", api, len(msg.Images), images)
	case status == 0:
		for _, img := range msg.Images {
			if img.MIME != "image/png" && img.MIME != "image/jpeg" || !bytes.Equal(img.Data, png) {
				t.Errorf("%s: image %s %q, want the PNG's bytes", api, img.MIME, img.Data)
			}
		}
	case !errors.As(err, &ce):
		t.Errorf("%s: %v, want a refusal", api, err)
	case ce.Status != status || !strings.Contains(ce.Msg, want):
		t.Errorf("%s: %d %q, want %d and %q", api, ce.Status, ce.Msg, status, want)
	case len(ce.Msg) > 300:
		t.Errorf("%s: a refusal of %d bytes", api, len(ce.Msg))
	}
}

// Images of earlier user messages stay on them; an assistant's image is refused.
func TestImagesInHistory(t *testing.T) {
	var a AnthropicRequest
	body := `{"max_tokens":5,"messages":[{"role":"user","content":[` + anthropicImage("image/gif", png64) + `,{"type":"text","text":"a"}]},` +
		`{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	history, msg, err := a.Turn()
	if err != nil || len(history) != 2 || len(history[0].Images) != 1 || history[0].Images[0].MIME != "image/gif" ||
		history[0].Text != "a" || msg.Text != "c" || len(msg.Images) != 0 {
		t.Fatalf("anthropic: %v %+v %+v", err, history, msg)
	}
	var o OpenAIRequest
	body = `{"model":"wisp","messages":[{"role":"user","content":[` + openAIImage("data:image/webp;base64,"+png64) + `]},` +
		`{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`
	if err := json.Unmarshal([]byte(body), &o); err != nil {
		t.Fatal(err)
	}
	ohistory, omsg, _, err := o.Turn([]string{"wisp"})
	if err != nil || len(ohistory) != 2 || len(ohistory[0].Images) != 1 || ohistory[0].Images[0].MIME != "image/webp" || omsg.Text != "c" {
		t.Fatalf("openai: %v %+v %+v", err, ohistory, omsg)
	}

	a = AnthropicRequest{}
	body = `{"max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[` + anthropicImage("image/png", png64) + `]},{"role":"user","content":"c"}]}`
	_ = json.Unmarshal([]byte(body), &a)
	if _, _, err := a.Turn(); err == nil || !strings.Contains(err.Error(), "images are read in user messages only") {
		t.Errorf("anthropic assistant image: %v", err)
	}
	o = OpenAIRequest{}
	body = `{"model":"wisp","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[` + openAIImage("data:image/png;base64,"+png64) + `]},{"role":"user","content":"c"}]}`
	_ = json.Unmarshal([]byte(body), &o)
	if _, _, _, err := o.Turn([]string{"wisp"}); err == nil || !strings.Contains(err.Error(), "images are read in user messages only") {
		t.Errorf("openai assistant image: %v", err)
	}
}

func TestParseDataURL(t *testing.T) {
	for _, c := range []struct {
		url, mediaType, data string
		ok                   bool
	}{
		{"data:image/png;base64,AAAA", "image/png", "AAAA", true},
		{"DATA:image/png;BASE64,AAAA", "image/png", "AAAA", true},
		{"data:image/png;name=a.png;base64,AAAA", "image/png", "AAAA", true},
		{"data:;base64,AAAA", "", "AAAA", true},
		{"data:image/png,AAAA", "", "", false},
		{"data:image/png;base64", "", "", false},
		{"https://x/a.png", "", "", false},
		{"dat", "", "", false},
	} {
		mt, data, ok := ParseDataURL(c.url)
		if mt != c.mediaType || data != c.data || ok != c.ok {
			t.Errorf("%q: %q %q %v", c.url, mt, data, ok)
		}
	}
}

// No data URL makes the parser panic, and what it accepts splits the URL.
func FuzzParseDataURL(f *testing.F) {
	for _, s := range []string{"data:image/png;base64,AAAA", "data:,", "data:;base64,", "data:a;b;base64,x,y", "http://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		mt, data, ok := ParseDataURL(u)
		if ok && (!strings.Contains(u, data) || !strings.Contains(u, mt)) {
			t.Fatalf("%q: %q %q", u, mt, data)
		}
		var b imageBudget
		if ok {
			if img, err := b.decode("x", mt, data); err == nil && len(img.Data) == 0 {
				t.Fatalf("%q: an empty image accepted", u)
			}
		}
	})
}
