package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// pngImage is a w×h PNG of noise (so it does not compress: a big one is big).
func pngImage(t testing.TB, w, h int) llm.Image {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return llm.Image{MIME: llm.MIMEPNG, Data: b.Bytes(), Width: w, Height: h}
}

// flatPNG is a w×h PNG of one colour: small whatever its size.
func flatPNG(t testing.TB, w, h int) llm.Image {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return llm.Image{MIME: llm.MIMEPNG, Data: b.Bytes(), Width: w, Height: h}
}

func jpegImage(t testing.TB, w, h int) llm.Image {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = color.Gray{Y: byte(i)}.Y
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return llm.Image{MIME: llm.MIMEJPEG, Data: b.Bytes(), Width: w, Height: h}
}

func imageRequest(text string, images ...llm.Image) llm.Request {
	return llm.Request{Model: "fake", System: "Be brief.", Messages: []llm.Message{{Role: llm.RoleUser, Text: text, Images: images}}}
}

// contentTypes are the types of the parts (OpenAI) or blocks (Anthropic) of the
// last message of a request body, in order.
func contentTypes(t *testing.T, body []byte) []string {
	t.Helper()
	var q struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &q); err != nil || len(q.Messages) == 0 {
		t.Fatalf("body: %v", err)
	}
	var parts []struct{ Type string }
	if err := json.Unmarshal(q.Messages[len(q.Messages)-1].Content, &parts); err != nil {
		return []string{"string"}
	}
	var types []string
	for _, p := range parts {
		types = append(types, p.Type)
	}
	return types
}

// TestImagesReachTheModel sends a big PNG and a small JPEG through each provider's
// wire and checks the fake received their bytes intact, before the text, and
// described them.
func TestImagesReachTheModel(t *testing.T) {
	big, small := pngImage(t, 400, 300), jpegImage(t, 10, 10)
	if len(big.Data) < 400_000 {
		t.Fatalf("the big image has %d bytes", len(big.Data))
	}
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		r := stream(context.Background(), p, imageRequest("what are these?", big, small))
		if r.err != nil {
			t.Fatalf("Stream: %v", r.err)
		}
		want := "I see 2 images: 400×300 image/png, 10×10 image/jpeg. You said: what are these?"
		if r.resp.Text != want {
			t.Errorf("reply %q, want %q", r.resp.Text, want)
		}
		rcv := srv.Requests()[0]
		if rcv.ImageCount != 2 || len(rcv.Images) != 2 {
			t.Fatalf("received %d images (%d in all)", len(rcv.Images), rcv.ImageCount)
		}
		for i, sent := range []llm.Image{big, small} {
			if got := rcv.Images[i]; got.MIME != sent.MIME || !bytes.Equal(got.Data, sent.Data) {
				t.Errorf("image %d: %s, %d bytes; sent %s, %d bytes", i, got.MIME, len(got.Data), sent.MIME, len(sent.Data))
			}
		}
		if got := rcv.LastUserText(); got != "what are these?" {
			t.Errorf("text %q", got)
		}
		wantTypes := []string{"image_url", "image_url", "text"}
		if p.Name() == llm.ProviderAnthropic {
			wantTypes = []string{"image", "image", "text"}
		}
		if got := contentTypes(t, rcv.Body); !slices.Equal(got, wantTypes) {
			t.Errorf("content %v, want %v", got, wantTypes)
		}
	})
}

// TestMessageWithoutImagesIsUnchanged pins the body of a plain text request: images
// change nothing for a message that has none.
func TestMessageWithoutImagesIsUnchanged(t *testing.T) {
	want := map[string]string{
		"openai":    `{"messages":[{"content":"Be brief.","role":"system"},{"content":"hello","role":"user"}],"model":"fake","stream_options":{"include_usage":true},"stream":true}`,
		"anthropic": `{"max_tokens":4096,"messages":[{"content":[{"text":"hello","type":"text"}],"role":"user"}],"model":"fake","system":[{"text":"Be brief.","type":"text"}],"stream":true}`,
	}
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		if r := stream(context.Background(), p, userRequest("hello")); r.err != nil {
			t.Fatal(r.err)
		}
		if got := string(srv.Requests()[0].Body); got != want[p.Name()] {
			t.Errorf("body\n%s\nwant\n%s", got, want[p.Name()])
		}
	})
}

// TestImagesOnlyAndHistory sends a conversation whose first message has an image
// and whose last has only images: every image is sent again, the last message's
// are Received.Images.
func TestImagesOnlyAndHistory(t *testing.T) {
	first, second, third := pngImage(t, 64, 48), pngImage(t, 3, 2), jpegImage(t, 16, 8)
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		req := llm.Request{Model: "fake", Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "look", Images: []llm.Image{first}},
			{Role: llm.RoleAssistant, Text: "I looked."},
			{Role: llm.RoleUser, Images: []llm.Image{second, third}},
		}}
		r := stream(context.Background(), p, req)
		if r.err != nil {
			t.Fatal(r.err)
		}
		if want := "I see 2 images: 3×2 image/png, 16×8 image/jpeg. You said: "; r.resp.Text != want {
			t.Errorf("reply %q", r.resp.Text)
		}
		rcv := srv.Requests()[0]
		if rcv.ImageCount != 3 || len(rcv.Images) != 2 || !bytes.Equal(rcv.Images[1].Data, third.Data) {
			t.Errorf("received %d of %d images", len(rcv.Images), rcv.ImageCount)
		}
		if got := rcv.Messages[0].Images; len(got) != 1 || !bytes.Equal(got[0].Data, first.Data) || got[0].Width != 64 || got[0].Height != 48 {
			t.Errorf("first message's images %+v", got)
		}
	})
}

// TestImageRefusedBeforeSending checks that an image Wisp cannot encode fails the
// turn as a bad request without a request.
func TestImageRefusedBeforeSending(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		for _, img := range []llm.Image{
			{MIME: `image/png"`, Data: []byte{1}},
			{MIME: "text/plain", Data: []byte{1}},
			{MIME: llm.MIMEPNG},
		} {
			r := stream(context.Background(), p, imageRequest("x", img))
			var e *llm.Error
			if !errors.As(r.err, &e) || e.Kind != llm.KindBadRequest {
				t.Errorf("%q: %v", img.MIME, r.err)
			}
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("%d requests sent", n)
		}
	})
}

// TestFakeRefusesMalformedImages sends an image whose bytes are not what its type
// says: the fake refuses it with the provider's error.
func TestFakeRefusesMalformedImages(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		r := stream(context.Background(), p, imageRequest("x", llm.Image{MIME: llm.MIMEPNG, Data: []byte("not a picture")}))
		var e *llm.Error
		if !errors.As(r.err, &e) || e.Kind != llm.KindBadRequest || e.Status != 400 {
			t.Fatalf("malformed image: %v", r.err)
		}
		want := "unsupported image"
		if p.Name() == llm.ProviderAnthropic {
			want = "messages.0.content.0.image.source.base64.data: Could not process image"
		}
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q, want %q", e.Message, want)
		}
	})
}

// TestBlindModel checks that a fake without vision refuses images.
func TestBlindModel(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.SetVision(false)
		r := stream(context.Background(), p, imageRequest("x", pngImage(t, 2, 2)))
		var e *llm.Error
		if !errors.As(r.err, &e) || e.Kind != llm.KindBadRequest || !strings.Contains(e.Message, "image input") {
			t.Fatalf("images to a blind model: %v", r.err)
		}
		if r := stream(context.Background(), p, userRequest("x")); r.err != nil {
			t.Errorf("text to a blind model: %v", r.err)
		}
	})
}

// TestImagesCountTowardTheWindow checks that a short text with an image goes over a
// window the text alone fits in.
func TestImagesCountTowardTheWindow(t *testing.T) {
	eachProvider(t, func(t *testing.T, srv *llmtest.Server, p llm.Provider) {
		srv.SetWindow(600)
		if r := stream(context.Background(), p, userRequest("what is this?")); r.err != nil {
			t.Fatalf("text alone: %v", r.err)
		}
		r := stream(context.Background(), p, imageRequest("what is this?", flatPNG(t, 1024, 1024)))
		if !llm.IsContextTooLong(r.err) {
			t.Fatalf("with an image: %v", r.err)
		}
	})
}

// TestSeesImagesFromTheFake asks the fake Ollama, with and without vision.
func TestSeesImagesFromTheFake(t *testing.T) {
	srv := newServer(t)
	cfg := llm.Config{Kind: llm.ProviderOllama, BaseURL: srv.OpenAIURL(), HTTPClient: testClient(t)}
	for _, on := range []bool{true, false} {
		srv.SetVision(on)
		want := map[bool]llm.Vision{true: llm.VisionYes, false: llm.VisionNo}[on]
		if got, err := llm.SeesImages(context.Background(), cfg, "fake"); got != want || err != nil {
			t.Errorf("vision %v: %v, %v", on, got, err)
		}
	}
	if got, err := llm.SeesImages(context.Background(), cfg, "missing"); got != llm.VisionUnknown || err != nil {
		t.Errorf("missing model: %v, %v", got, err)
	}
}

// BenchmarkImageRequest measures the client's side of a turn carrying a 1 MB
// image, against a server that drains the body and answers at once: the image's
// base64 is streamed into the body, so a turn allocates far less than the image.
func BenchmarkImageRequest(b *testing.B) {
	replies := map[string]string{
		"/v1/chat/completions": "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
		"/v1/messages": "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, replies[r.URL.Path])
	}))
	defer srv.Close()
	req := imageRequest("what?", pngImage(b, 600, 400))
	for _, p := range []llm.Provider{
		llm.NewOpenAI(llm.Config{BaseURL: srv.URL + "/v1", HTTPClient: testClient(b)}),
		llm.NewAnthropic(llm.Config{BaseURL: srv.URL, HTTPClient: testClient(b)}),
	} {
		b.Run(p.Name(), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(req.Messages[0].Images[0].Data)))
			for b.Loop() {
				if _, err := p.Stream(context.Background(), req, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
