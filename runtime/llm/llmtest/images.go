package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif" // the formats models are sent, for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// ReceivedImage is an image a request carried, decoded from its wire form (a data
// URL or a base64 source).
type ReceivedImage struct {
	MIME string
	Data []byte
}

// imageFault is a malformed image, refused with the provider's own words.
type imageFault struct {
	message string
	param   string // OpenAI's error param
	code    string // OpenAI's error code
}

func (f *imageFault) Error() string { return f.message }

// anthropicMaxImage is the size Anthropic refuses an image above.
const anthropicMaxImage = 5 << 20

// decodeDataURL reads an OpenAI image_url: a data URL of base64 image bytes. at is
// the JSON path of the url, as OpenAI's errors name it.
func decodeDataURL(url, at string) (llm.Image, *imageFault) {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		what := "a value without the 'data:' prefix"
		if strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://") {
			what = "a remote URL, which llmtest does not fetch"
		}
		return llm.Image{}, &imageFault{
			message: fmt.Sprintf("Invalid image URL: '%s'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got %s.", at, what),
			param:   at, code: "invalid_value",
		}
	}
	mime, data, ok := strings.Cut(rest, ";base64,")
	raw, err := base64.StdEncoding.DecodeString(data)
	switch {
	case !ok || !strings.HasPrefix(mime, "image/"):
		return llm.Image{}, &imageFault{
			message: fmt.Sprintf("Invalid image URL: '%s'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got an invalid MIME type or encoding.", at),
			param:   at, code: "invalid_value",
		}
	case err != nil || len(raw) == 0:
		return llm.Image{}, &imageFault{message: "Invalid base64 image_url.", param: at, code: "invalid_base64"}
	}
	img, ok := decodeImage(raw)
	if !ok {
		return llm.Image{}, &imageFault{
			message: "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
			param:   at, code: "invalid_image_format",
		}
	}
	return img, nil
}

// decodeSource reads an Anthropic image block's source; at is the block's path
// ("messages.0.content.1"), as Anthropic's errors name it.
func decodeSource(src *anthropicSource, at string) (llm.Image, *imageFault) {
	if src == nil || src.Type != "base64" {
		typ := "none"
		if src != nil {
			typ = src.Type
		}
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source: llmtest accepts base64 sources only, not %q", at, typ)}
	}
	switch src.MediaType {
	case llm.MIMEJPEG, llm.MIMEPNG, llm.MIMEGIF, llm.MIMEWebP:
	default:
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", at)}
	}
	if n := len(src.Data)/4*3 - strings.Count(src.Data[max(0, len(src.Data)-2):], "="); n > anthropicMaxImage {
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source.base64: image exceeds 5 MB maximum: %d bytes > %d bytes", at, n, anthropicMaxImage)}
	}
	raw, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil || len(raw) == 0 {
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source.base64.data: invalid base64 data", at)}
	}
	img, ok := decodeImage(raw)
	if !ok {
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source.base64.data: Could not process image", at)}
	}
	if img.MIME != src.MediaType {
		return llm.Image{}, &imageFault{message: fmt.Sprintf("%s.image.source.base64.data: Image does not match the provided media type %s", at, src.MediaType)}
	}
	return img, nil
}

// decodeImage reads data's type and size from its header: PNG, JPEG, GIF or WebP.
func decodeImage(data []byte) (llm.Image, bool) {
	if w, h, ok := webpSize(data); ok {
		return llm.Image{MIME: llm.MIMEWebP, Data: data, Width: w, Height: h}, true
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return llm.Image{}, false
	}
	return llm.Image{MIME: "image/" + format, Data: data, Width: cfg.Width, Height: cfg.Height}, true
}

// webpSize reads a WebP's canvas size from its first chunk (the standard library
// has no WebP decoder): VP8X's canvas, VP8L's or VP8's frame size.
func webpSize(b []byte) (int, int, bool) {
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8X":
		return le24(b[24:]) + 1, le24(b[27:]) + 1, true
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, true
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff), true
	}
	return 0, 0, false
}

// noteImages fills Images and ImageCount from the decoded messages.
func (r *Received) noteImages() {
	r.ImageCount, r.Images = 0, nil
	for _, m := range r.Messages {
		r.ImageCount += len(m.Images)
	}
	if m, ok := r.lastUser(); ok {
		for _, img := range m.Images {
			r.Images = append(r.Images, ReceivedImage{MIME: img.MIME, Data: img.Data})
		}
	}
}

// lastUser is the conversation's last user message.
func (r Received) lastUser() (llm.Message, bool) {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			return r.Messages[i], true
		}
	}
	return llm.Message{}, false
}

// seen describes images as Echo does: "I see 2 images: 64×48 image/png, 10×10
// image/jpeg."; "" for none.
func seen(images []llm.Image) string {
	if len(images) == 0 {
		return ""
	}
	sizes := make([]string, len(images))
	for i, img := range images {
		sizes[i] = fmt.Sprintf("%d×%d %s", img.Width, img.Height, img.MIME)
	}
	noun := "images"
	if len(images) == 1 {
		noun = "image"
	}
	return fmt.Sprintf("I see %d %s: %s.", len(images), noun, strings.Join(sizes, ", "))
}

// SetVision says whether the fake model sees images (by default it does): Ollama's
// POST /api/show lists the "vision" capability only when it does, and a model that
// does not refuses a chat request carrying images, in either protocol, with a 400
// saying what Ollama says ("this model is missing data required for image input").
func (s *Server) SetVision(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blind = !on
}

// Vision reports whether the fake model sees images.
func (s *Server) Vision() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.blind
}

// blindMessage is Ollama's error for images sent to a model without vision.
const blindMessage = "this model is missing data required for image input"
