package compat

import (
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// Images in a request: both APIs carry them as base64 in the request itself
// (Anthropic's image block with a base64 source, OpenAI's image_url part with a data
// URL). Wisp never fetches a remote image: that would let any caller make Wisp reach
// any address.

// The bounds of the images of one request.
const (
	MaxImageBytes   = 20 << 20 // one image, decoded
	MaxImagesBytes  = 50 << 20 // every image of a request, decoded
	MaxImages       = 100      // images in a request
	MaxRequestBytes = 72 << 20 // a request body with images: 50 MiB as base64, and text
)

// imageTypes are the media types read (those both providers take); image/jpg is
// read as image/jpeg.
var imageTypes = map[string]string{
	"image/png": "image/png", "image/jpeg": "image/jpeg", "image/jpg": "image/jpeg",
	"image/gif": "image/gif", "image/webp": "image/webp",
}

// remoteImage is the refusal of an image by URL.
const remoteImage = "remote images are not fetched: send the image as base64 (a data URL)"

// imageBudget counts the images of one request against the bounds.
type imageBudget struct {
	n     int
	bytes int64
}

// decode checks and decodes one image's base64 data of mediaType; where names it in
// the refusal.
func (b *imageBudget) decode(where, mediaType, data string) (llm.Image, error) {
	mt, ok := imageTypes[strings.ToLower(strings.TrimSpace(mediaType))]
	if !ok {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error",
			"%s: media type %q is not an image type read here (image/png, image/jpeg, image/gif, image/webp)", where, clip(mediaType))
	}
	if b.n++; b.n > MaxImages {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s: a request may carry at most %d images", where, MaxImages)
	}
	data = strings.TrimRight(data, "=")
	if int64(base64.RawStdEncoding.DecodedLen(len(data))) > MaxImageBytes {
		return llm.Image{}, errorf(http.StatusRequestEntityTooLarge, "request_too_large",
			"%s: an image may be at most %d MiB", where, MaxImageBytes>>20)
	}
	raw, err := base64.RawStdEncoding.DecodeString(data)
	if err != nil || len(raw) == 0 {
		return llm.Image{}, errorf(http.StatusBadRequest, "invalid_request_error", "%s: the image's data is not base64", where)
	}
	if b.bytes += int64(len(raw)); b.bytes > MaxImagesBytes {
		return llm.Image{}, errorf(http.StatusRequestEntityTooLarge, "request_too_large",
			"%s: the images of a request may be at most %d MiB in all", where, MaxImagesBytes>>20)
	}
	return llm.Image{MIME: mt, Data: raw}, nil
}

// ParseDataURL splits a data URL of base64 data (data:image/png;base64,…) into its
// media type and data; ok is false for anything else (another scheme, data that is
// not base64).
func ParseDataURL(u string) (mediaType, data string, ok bool) {
	if len(u) < 5 || !strings.EqualFold(u[:5], "data:") {
		return "", "", false
	}
	head, data, found := strings.Cut(u[5:], ",")
	if !found {
		return "", "", false
	}
	params := strings.Split(head, ";")
	if len(params) < 2 || !strings.EqualFold(strings.TrimSpace(params[len(params)-1]), "base64") {
		return "", "", false
	}
	return strings.TrimSpace(params[0]), data, true
}

// isRemote reports whether a URL names an image elsewhere (http or https).
func isRemote(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

// clip is at most 64 bytes of s, for a refusal that quotes the request.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
