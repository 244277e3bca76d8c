package llm

import (
	"math"
	"slices"
	"strings"
)

// The image types a model may be sent, as Image.MIME names them.
const (
	MIMEPNG  = "image/png"
	MIMEJPEG = "image/jpeg"
	MIMEGIF  = "image/gif"
	MIMEWebP = "image/webp"
)

// ImageLimits is what a provider documents of the images it accepts: an image is
// fitted within every non-zero bound (keeping its aspect ratio, never enlarged)
// before it is sent, so that the provider does not scale it down itself (which
// costs latency and nothing else) or refuse it.
type ImageLimits struct {
	MaxEdge      int // the longest edge, in pixels; 0: no bound
	MaxShortEdge int // the shortest edge, in pixels, after MaxEdge; 0: no bound
	MaxPixels    int // width × height; 0: no bound
	MaxBytes     int // the encoded image, before base64
	// Formats are the MIME types accepted (MIMEPNG, ...); an image of another type
	// is converted to one of them.
	Formats []string
}

// The figures of ImageLimitsFor, from each provider's documentation.
const (
	// Anthropic, "Vision" (platform.claude.com/docs/en/build-with-claude/vision,
	// 2026): an image whose long edge is over 1568 px, or over about 1,600 tokens,
	// is scaled down by the API; the guide advises at most 1.15 megapixels and
	// 1568 px on both edges. Over 8000×8000 px is refused, as is an image over
	// 5 MB ("image exceeds 5 MB maximum: … bytes > 5242880 bytes"); the formats are
	// JPEG, PNG, GIF and WebP.
	anthropicMaxEdge   = 1568
	anthropicMaxPixels = 1_150_000
	anthropicMaxBytes  = 5 << 20
	// OpenAI, "Images and vision" (platform.openai.com/docs/guides/images-vision,
	// 2026): in high detail an image is first fitted within 2048×2048, then scaled
	// so that its short side is 768 px, and cut into 512 px tiles; an image may
	// weigh up to 20 MB; the formats are PNG, JPEG, WebP and non-animated GIF
	// (an animated GIF is sent as its first frame).
	openAIMaxEdge      = 2048
	openAIMaxShortEdge = 768
	openAIMaxBytes     = 20_000_000
)

// ImageLimitsFor is the limits of the provider kind names (Config.Kind):
// Anthropic's for ProviderAnthropic, OpenAI's for every other kind, since Ollama,
// LM Studio and llama.cpp are reached through the OpenAI-compatible API (their
// vision models scale images to their own, smaller, input sizes). Ollama decodes
// PNG and JPEG only (ollama/ollama#2457, "Support for more image types", open), so
// its formats are those two.
func ImageLimitsFor(kind string) ImageLimits {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if kind == ProviderAnthropic {
		return ImageLimits{
			MaxEdge: anthropicMaxEdge, MaxPixels: anthropicMaxPixels, MaxBytes: anthropicMaxBytes,
			Formats: []string{MIMEJPEG, MIMEPNG, MIMEGIF, MIMEWebP},
		}
	}
	lim := ImageLimits{
		MaxEdge: openAIMaxEdge, MaxShortEdge: openAIMaxShortEdge, MaxBytes: openAIMaxBytes,
		Formats: []string{MIMEPNG, MIMEJPEG, MIMEWebP, MIMEGIF},
	}
	if kind == ProviderOllama {
		lim.Formats = []string{MIMEPNG, MIMEJPEG}
	}
	return lim
}

// Accepts reports whether mime is one of l's formats.
func (l ImageLimits) Accepts(mime string) bool {
	return slices.Contains(l.Formats, mime)
}

// Fit is the size an image of w×h pixels takes once fitted within l: scaled down,
// keeping its aspect ratio, until its long edge is at most MaxEdge, its short edge
// at most MaxShortEdge and its area at most MaxPixels. Each edge is rounded down
// and is at least 1 pixel; a size within l is returned as is, and a size that is
// not positive as 0×0.
func (l ImageLimits) Fit(w, h int) (int, int) {
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	scale := 1.0
	long, short := max(w, h), min(w, h)
	if l.MaxEdge > 0 && long > l.MaxEdge {
		scale = float64(l.MaxEdge) / float64(long)
	}
	if l.MaxShortEdge > 0 && float64(short)*scale > float64(l.MaxShortEdge) {
		scale = float64(l.MaxShortEdge) / float64(short)
	}
	if l.MaxPixels > 0 && float64(w)*float64(h)*scale*scale > float64(l.MaxPixels) {
		scale = min(scale, math.Sqrt(float64(l.MaxPixels)/(float64(w)*float64(h))))
	}
	if scale >= 1 {
		return w, h
	}
	return scaled(w, scale), scaled(h, scale)
}

// scaled is n×scale rounded down, but not below 1; the tiny allowance keeps a
// product that should be whole (1568/3000 × 3000) from falling one pixel short.
func scaled(n int, scale float64) int {
	return max(1, int(float64(n)*scale+1e-9))
}
