package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func openAIImageBody(url string) string {
	return `{"model":"fake","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":` + quote(url) + `}}]}]}`
}

func anthropicImageBody(mediaType, data string) string {
	return `{"model":"fake","max_tokens":10,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":` +
		quote(mediaType) + `,"data":` + quote(data) + `}},{"type":"text","text":"a"}]}]}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMalformedImagesAreRefused posts malformed images in each protocol and checks
// the provider's own error shape, and that none takes a turn.
func TestMalformedImagesAreRefused(t *testing.T) {
	png64 := base64.StdEncoding.EncodeToString(pngBytes(t, 4, 3))
	tests := []struct {
		name, path, body, want string
	}{
		{"openai no data prefix", "/v1/chat/completions", openAIImageBody(png64),
			`"code":"invalid_value","message":"Invalid image URL: 'messages[0].content[1].image_url.url'. Expected a base64-encoded data URL`},
		{"openai remote", "/v1/chat/completions", openAIImageBody("https://example.com/a.png"), `a remote URL, which llmtest does not fetch`},
		{"openai bad base64", "/v1/chat/completions", openAIImageBody("data:image/png;base64,%%%"), `"code":"invalid_base64"`},
		{"openai not base64", "/v1/chat/completions", openAIImageBody("data:image/png," + png64), `"code":"invalid_value"`},
		{"openai not an image", "/v1/chat/completions", openAIImageBody("data:image/png;base64,aGVsbG8="), `"code":"invalid_image_format"`},
		{"anthropic bad base64", "/v1/messages", anthropicImageBody("image/png", "%%%"),
			`"error":{"message":"messages.0.content.0.image.source.base64.data: invalid base64 data","type":"invalid_request_error"}`},
		{"anthropic wrong media type", "/v1/messages", anthropicImageBody("image/jpeg", png64), `Image does not match the provided media type image/jpeg`},
		{"anthropic unknown media type", "/v1/messages", anthropicImageBody("image/bmp", png64), `media_type: Input should be`},
		{"anthropic not an image", "/v1/messages", anthropicImageBody("image/png", "aGVsbG8="), `Could not process image`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			s.Script(TextTurn("unused", 0))
			status, body := post(t, s.URL+tt.path, tt.body)
			if status != http.StatusBadRequest || !strings.Contains(body, tt.want) {
				t.Errorf("%d %s, want 400 with %s", status, body, tt.want)
			}
			if s.Pending() != 1 || len(s.Requests()) != 0 {
				t.Error("a refused request took a turn or was recorded")
			}
		})
	}
}

// TestAnthropicRefusesBigImages checks the 5 MB bound, before decoding.
func TestAnthropicRefusesBigImages(t *testing.T) {
	for _, c := range []struct {
		data string
		want string
	}{
		{strings.Repeat("A", (5<<20)/3*4) + "AAAAAAAA", "image exceeds 5 MB maximum: 5242884 bytes > 5242880 bytes"},
		{strings.Repeat("A", (5<<20)/3*4) + "AAAA", "image exceeds 5 MB maximum: 5242881 bytes > 5242880 bytes"},
		{strings.Repeat("A", (5<<20)/3*4) + "AAA=", "Could not process image"}, // 5242880 bytes: not too big
	} {
		_, fault := decodeSource(&anthropicSource{Type: "base64", MediaType: "image/png", Data: c.data}, "messages.0.content.0")
		if fault == nil || !strings.Contains(fault.message, c.want) {
			t.Errorf("%d base64 bytes: %v, want %s", len(c.data), fault, c.want)
		}
	}
}

func TestReceivedImages(t *testing.T) {
	s := newTestServer(t)
	a, b := pngBytes(t, 64, 48), pngBytes(t, 1, 1)
	var g bytes.Buffer
	if err := gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 5, 7), color.Palette{color.Black}), nil); err != nil {
		t.Fatal(err)
	}
	url := func(mime string, data []byte) string {
		return `{"type":"image_url","image_url":{"url":"data:` + mime + `;base64,` + base64.StdEncoding.EncodeToString(data) + `"}}`
	}
	body := `{"model":"fake","messages":[{"role":"user","content":[` + url("image/png", a) + `,{"type":"text","text":"first"}]},
		{"role":"assistant","content":"ok"},
		{"role":"user","content":[` + url("image/png", b) + `,` + url("image/gif", g.Bytes()) + `,{"type":"text","text":"then"}]}]}`
	status, reply := post(t, s.OpenAIURL()+"/chat/completions", body)
	if status != http.StatusOK || !strings.Contains(reply, `"content":"I see 2 images: 1×1 image/png, 5×7 image/gif. You said: then"`) {
		t.Fatalf("%d %s", status, reply)
	}
	r := s.Requests()[0]
	if r.ImageCount != 3 || len(r.Images) != 2 || r.Images[1].MIME != "image/gif" || !bytes.Equal(r.Images[0].Data, b) {
		t.Errorf("images %d of %d", len(r.Images), r.ImageCount)
	}
	if m := r.Messages[0]; len(m.Images) != 1 || m.Images[0].Width != 64 || m.Images[0].Height != 48 || m.Text != "first" {
		t.Errorf("first message %+v", m.Text)
	}
}

func TestWebPSize(t *testing.T) {
	header := func(chunk string, payload ...byte) []byte {
		b := append([]byte("RIFF\x00\x00\x00\x00WEBP"+chunk+"\x00\x00\x00\x00"), payload...)
		return append(b, make([]byte, 16)...)
	}
	tests := []struct {
		name string
		data []byte
		w, h int
		ok   bool
	}{
		// VP8X: flags, reserved, then canvas width-1 and height-1 on 24 bits.
		{"vp8x", header("VP8X", 0, 0, 0, 0, 63, 0, 0, 47, 0, 0), 64, 48, true},
		// VP8L: signature 0x2f, then 14 bits of width-1 and 14 of height-1.
		{"vp8l", header("VP8L", 0x2f, 63, 0xc0|0, 0x0b, 0), 64, 48, true},
		// VP8: frame tag, start code, then 14-bit width and height.
		{"vp8", header("VP8 ", 0, 0, 0, 0x9d, 0x01, 0x2a, 64, 0, 48, 0), 64, 48, true},
		{"vp8 bad start code", header("VP8 ", 0, 0, 0, 0, 0, 0, 64, 0, 48, 0), 0, 0, false},
		{"short", []byte("RIFF\x00\x00\x00\x00WEBP"), 0, 0, false},
		{"png", pngBytes(t, 2, 2), 0, 0, false},
	}
	for _, tt := range tests {
		w, h, ok := webpSize(tt.data)
		if w != tt.w || h != tt.h || ok != tt.ok {
			t.Errorf("%s: %d×%d %v, want %d×%d %v", tt.name, w, h, ok, tt.w, tt.h, tt.ok)
		}
	}
	if img, ok := decodeImage(tests[0].data); !ok || img.MIME != llm.MIMEWebP {
		t.Errorf("decodeImage of a WebP: %+v %v", img.MIME, ok)
	}
}

func FuzzDecodeImage(f *testing.F) {
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8X"))
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if img, ok := decodeImage(data); ok && (img.Width <= 0 || img.Height <= 0) {
			t.Fatalf("size %d×%d", img.Width, img.Height)
		}
	})
}

func TestSetVisionShowsCapabilities(t *testing.T) {
	s := newTestServer(t)
	for _, on := range []bool{true, false} {
		s.SetVision(on)
		_, body := post(t, s.URL+"/api/show", `{"model":"fake"}`)
		if got := strings.Contains(body, `"vision"`); got != on || s.Vision() != on {
			t.Errorf("vision %v: %s", on, body)
		}
	}
}
