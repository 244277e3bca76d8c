package llm

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// imageSlots puts images into a request body an SDK encodes without the SDK ever
// holding them: each image stands in the SDK's params as a marker string, and the
// body sent is the encoded params with each marker replaced by the image's base64
// (after "data:<mime>;base64," for a data URL), encoded from the image's bytes
// while the body is written. No base64 copy of an image is held in memory, and the
// JSON encoder never scans one.
//
// A marker carries a random nonce drawn for the request, so no text of the
// conversation can pass for one.
type imageSlots struct {
	dataURL bool // the marker stands for a data URL (OpenAI), else bare base64 (Anthropic)
	nonce   string
	images  []Image
	spliced bool // middleware has replaced the body: a retry replays the new one
}

// add validates img and returns the marker standing for it.
func (s *imageSlots) add(img Image) (string, error) {
	if !simpleMIME(img.MIME) {
		return "", fmt.Errorf("image %d: type %q is not an image type", len(s.images)+1, img.MIME)
	}
	if len(img.Data) == 0 {
		return "", fmt.Errorf("image %d: no data", len(s.images)+1)
	}
	if s.nonce == "" {
		s.nonce = rand.Text()
	}
	s.images = append(s.images, img)
	return s.marker(len(s.images) - 1), nil
}

func (s *imageSlots) marker(i int) string {
	return "wisp-image-" + s.nonce + "-" + strconv.Itoa(i)
}

// simpleMIME reports whether mime is "image/" and a token that needs no escaping
// in JSON: it is written into the body as is.
func simpleMIME(mime string) bool {
	sub, ok := bytes.CutPrefix([]byte(mime), []byte("image/"))
	if !ok || len(sub) == 0 || len(sub) > 64 {
		return false
	}
	for _, c := range sub {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

// splice is the body to send for encoded, the JSON with s's markers in it: each
// marker, a whole JSON string's content, found in order and replaced.
func (s *imageSlots) splice(encoded []byte) (splicedBody, error) {
	var body splicedBody
	rest := encoded
	for i, img := range s.images {
		quoted := []byte(`"` + s.marker(i) + `"`)
		at := bytes.Index(rest, quoted)
		if at < 0 {
			return splicedBody{}, fmt.Errorf("image %d is missing from the encoded request", i+1)
		}
		head := rest[:at+1] // up to the opening quote
		if s.dataURL {
			head = append(head[:len(head):len(head)], "data:"+img.MIME+";base64,"...)
		}
		body.parts = append(body.parts, bodyPart{literal: head}, bodyPart{image: img.Data})
		rest = rest[at+len(quoted)-1:] // from the closing quote
	}
	body.parts = append(body.parts, bodyPart{literal: rest})
	return body, nil
}

// splicedBody is a request body made of literal JSON and images written as base64.
type splicedBody struct {
	parts []bodyPart
}

type bodyPart struct {
	literal []byte
	image   []byte // written as its standard base64 encoding
}

// Len is the body's length in bytes.
func (b splicedBody) Len() int64 {
	var n int64
	for _, p := range b.parts {
		n += int64(len(p.literal)) + int64(base64.StdEncoding.EncodedLen(len(p.image)))
	}
	return n
}

// set makes b req's body, replayable for a retry or a redirect.
func (b splicedBody) set(req *http.Request) {
	req.ContentLength = b.Len()
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(b.reader()), nil }
	req.Body, _ = req.GetBody()
}

func (b splicedBody) reader() *bodyReader {
	return &bodyReader{parts: b.parts}
}

// bodyReader reads a splicedBody from the start, encoding images as it goes.
type bodyReader struct {
	parts   []bodyPart
	off     int     // how much of parts[0]'s literal or image has been consumed
	group   [4]byte // one base64 group, for a Read with less than 4 bytes of room
	pending []byte  // what of group is still to be read
}

func (r *bodyReader) Read(p []byte) (int, error) {
	n := 0
	for len(p) > 0 && len(r.parts) > 0 {
		part := &r.parts[0]
		var m int
		if part.image == nil {
			m = copy(p, part.literal[r.off:])
			r.off += m
		} else {
			m = r.encode(p, part.image)
		}
		n += m
		p = p[m:]
		if r.off >= len(part.literal)+len(part.image) && len(r.pending) == 0 {
			r.parts, r.off = r.parts[1:], 0
		}
	}
	if n == 0 && len(r.parts) == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// encode writes into p as much of src's base64 as fits, from r.off.
func (r *bodyReader) encode(p, src []byte) int {
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	p = p[n:]
	for len(p) > 0 && r.off < len(src) {
		room := len(p) / 4 * 3 // whole groups only, so the padding can only come last
		if room == 0 {
			end := min(r.off+3, len(src))
			base64.StdEncoding.Encode(r.group[:], src[r.off:end])
			r.off = end
			c := copy(p, r.group[:])
			r.pending = r.group[c:]
			return n + c
		}
		end := min(r.off+room, len(src))
		m := base64.StdEncoding.EncodedLen(end - r.off)
		base64.StdEncoding.Encode(p, src[r.off:end])
		r.off = end
		n += m
		p = p[m:]
	}
	return n
}

// middleware replaces the body the Anthropic SDK encoded with the spliced one; its
// signature matches option.Middleware. A request without images is left alone.
func (s *imageSlots) middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	if len(s.images) == 0 || req.Body == nil || s.spliced {
		return next(req)
	}
	encoded, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Provider: ProviderAnthropic, Message: "cannot encode the request", Err: err}
	}
	body, err := s.splice(encoded)
	if err != nil {
		return nil, &Error{Kind: KindBadRequest, Provider: ProviderAnthropic, Message: "cannot encode the request", Err: err}
	}
	body.set(req)
	s.spliced = true
	return next(req)
}
