package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/pdfgen"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// The end-to-end path for attachments, through Wisp's own HTTP API and the
// fake model's real wires: upload, send, what the model received, what the user sees.

// testPNG is a w×h PNG with a gradient (so it is not trivially compressible).
func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{R: uint8(x * 4), G: uint8(y * 5), B: 200, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload posts a file's bytes as the UI does and answers the attachment.
func (c *chatApp) attachFile(name, ctype string, data []byte) wire.Attachment {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.URL()+"/api/attachments?name="+url.QueryEscape(name), bytes.NewReader(data))
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("X-Wisp-Upload", "1")
	var out wire.AttachmentCreated
	if code := c.roundTrip(req, &out); code != http.StatusCreated {
		c.t.Fatalf("upload %s: %d", name, code)
	}
	return out.Attachment
}

// sendWith sends a message with attachments and waits for its run to end; it answers
// the run's status.
func (c *chatApp) sendWith(conv, text string, ids ...string) string {
	c.t.Helper()
	var out struct{ RunID, Status, Error string }
	if code := c.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": text, "attachments": ids}, &out); code != http.StatusOK {
		c.t.Fatalf("send: %d %+v", code, out)
	}
	return out.Status
}

// userAttachments are the attachments the messages list shows on the conversation's
// first user message.
func (c *chatApp) userAttachments(conv string) []wire.Attachment {
	c.t.Helper()
	var out wire.MessageList
	if code := c.call("GET", "/api/conversations/"+conv+"/messages", nil, &out); code != http.StatusOK {
		c.t.Fatalf("messages: %d", code)
	}
	for _, m := range out.Messages {
		if m.Role == wire.RoleUser {
			return m.Attachments
		}
	}
	return nil
}

func lastRequest(t *testing.T, fake *llmtest.Server) llmtest.Received {
	t.Helper()
	reqs := fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never asked")
	}
	return reqs[len(reqs)-1]
}

// An image attached in the chat reaches both providers as their own image block, its
// bytes intact; the model's answer and the user's bubble show it.
func TestImagesReachBothProviders(t *testing.T) {
	for _, p := range []struct{ kind, key string }{{"openai", "OPENAI_API_KEY"}, {"anthropic", "ANTHROPIC_API_KEY"}} {
		t.Run(p.kind, func(t *testing.T) {
			fake := llmtest.New()
			t.Cleanup(fake.Close)
			base := fake.OpenAIURL()
			if p.kind == "anthropic" {
				base = fake.AnthropicURL()
			}
			opts := testOptions(t, t.TempDir(), map[string]string{
				"WISP_PROVIDER": p.kind, "WISP_BASE_URL": base, "WISP_MODEL": "fake", p.key: "k"})
			opts.NoTitles = true
			a := startApp(t, opts)
			t.Cleanup(func() { a.Stop() })
			c := &chatApp{App: a, t: t, fake: fake}
			pic := testPNG(t, 64, 48)
			att := c.attachFile("shot.png", "image/png", pic)
			if att.Kind != wire.AttachmentImage || att.Width != 64 || att.Height != 48 {
				t.Fatalf("uploaded %+v", att)
			}
			conv := c.newConversation()
			if st := c.sendWith(conv, "what is in this picture?", att.ID); st != "ended" {
				t.Fatalf("run %s", st)
			}
			got := lastRequest(t, fake)
			if len(got.Images) != 1 || got.Images[0].MIME != "image/png" || !bytes.Equal(got.Images[0].Data, pic) {
				t.Fatalf("the model received %d images", len(got.Images))
			}
			msgs := c.messages(conv)
			if reply := msgs[len(msgs)-1].Text; !strings.HasPrefix(reply, "I see 1 image: 64×48 image/png.") {
				t.Fatalf("reply %q", reply)
			}
			if shown := c.userAttachments(conv); len(shown) != 1 || shown[0].ID != att.ID || shown[0].Name != "shot.png" {
				t.Fatalf("the user's bubble shows %+v", shown)
			}
		})
	}
}

// A document too big for the context is searched: the turn carries the pages that
// match the question, each cited with the file's name and its page.
func TestChunkedDocumentCitesItsPage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(`{"model": {"contextWindow": 8000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChat(t, dir)
	doc := c.attachFile("manual.pdf", "application/pdf", pdfgen.Pages(200))
	if doc.Kind != wire.AttachmentPDF {
		t.Fatalf("uploaded %+v", doc)
	}
	conv := c.newConversation()
	if st := c.sendWith(conv, "What does the manual say about KEYWORD-137?", doc.ID); st != "ended" {
		t.Fatalf("run %s", st)
	}
	got := lastRequest(t, c.fake)
	var sent strings.Builder
	for _, m := range got.Messages {
		sent.WriteString(m.Text)
	}
	text := sent.String()
	if !strings.Contains(text, "[manual.pdf, page 137]") || !strings.Contains(text, "KEYWORD-137") {
		t.Fatalf("the turn does not cite page 137:\n%.2000s", text)
	}
	if strings.Contains(text, "KEYWORD-12 ") || strings.Count(text, "[manual.pdf, page ") > 40 {
		t.Fatal("the turn sent the whole document, not the excerpts")
	}
	if got.Tokens > 8000 {
		t.Fatalf("the request holds %d tokens, the window 8000", got.Tokens)
	}
	if shown := c.userAttachments(conv); len(shown) != 1 || shown[0].Pages != 200 {
		t.Fatalf("the user's bubble shows %+v", shown)
	}
}

// A model its provider says is blind is not sent the image: the reply goes on, and
// the run says why in a notice.
func TestBlindModelGetsANotice(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.SetVision(false)
	opts := testOptions(t, t.TempDir(), map[string]string{
		"WISP_PROVIDER": "ollama", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake"})
	opts.NoTitles = true
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	c := &chatApp{App: a, t: t, fake: fake}
	att := c.attachFile("shot.png", "image/png", testPNG(t, 32, 32))
	conv := c.newConversation()
	if st := c.sendWith(conv, "what is this?", att.ID); st != "ended" {
		t.Fatalf("run %s", st)
	}
	if got := lastRequest(t, fake); got.ImageCount != 0 {
		t.Fatalf("a blind model was sent %d images", got.ImageCount)
	}
	var rows wire.DisplayMessageList
	c.call("GET", "/api/conversations/"+conv+"/display-messages", nil, &rows)
	found := false
	for _, r := range rows.DisplayMessages {
		if r.ContentType == wire.ContentNotification && strings.Contains(string(r.Content), "cannot see images") {
			found = true
		}
	}
	if !found {
		data, _ := json.Marshal(rows)
		t.Fatalf("no notice among the rows: %s", data)
	}
	var info struct{ Vision string }
	c.call("GET", "/api/provider", nil, &info)
	if info.Vision != "no" {
		t.Fatalf("the provider's answer says vision %q", info.Vision)
	}
}

// /v1/chat/completions takes a data URL image and the model receives its bytes.
func TestV1ImageReachesTheModel(t *testing.T) {
	c := startChat(t, t.TempDir())
	pic := testPNG(t, 20, 10)
	body := fmt.Sprintf(`{"model":"fake","messages":[{"role":"user","content":[
		{"type":"image_url","image_url":{"url":"data:image/png;base64,%s"}},{"type":"text","text":"what is it?"}]}]}`,
		base64.StdEncoding.EncodeToString(pic))
	req, _ := http.NewRequest("POST", c.URL()+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	var out struct {
		Choices []struct{ Message struct{ Content string } }
	}
	if code := c.roundTrip(req, &out); code != http.StatusOK {
		t.Fatalf("/v1: %d", code)
	}
	if got := lastRequest(t, c.fake); len(got.Images) != 1 || !bytes.Equal(got.Images[0].Data, pic) {
		t.Fatalf("the model received %d images", len(got.Images))
	}
	if len(out.Choices) != 1 || !strings.HasPrefix(out.Choices[0].Message.Content, "I see 1 image: 20×10 image/png.") {
		t.Fatalf("answer %+v", out)
	}
}
