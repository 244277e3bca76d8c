package tokens

import (
	"testing"

	"github.com/wispapp/wisp/runtime/llm"
)

func TestImageTokens(t *testing.T) {
	cases := []struct {
		kind string
		w, h int
		want int
	}{
		// OpenAI's own examples ("Images and vision", calculating costs).
		{"openai", 1024, 1024, 765},  // 768×768: 4 tiles
		{"openai", 2048, 4096, 1105}, // 1024×2048, then 768×1536: 6 tiles
		{"openai", 512, 512, 255},    // one tile
		{"openai", 64, 48, 255},      // small images are not enlarged
		{"openai", 513, 100, 425},    // 2 tiles
		{"ollama", 1024, 1024, 765},  // every other kind counts as OpenAI
		{"", 1024, 1024, 765},
		{"openai", 0, 0, 85 + 170*8}, // unknown: the most tiles, 2048×768
		// Anthropic's: w·h/750 after the fit.
		{"anthropic", 1000, 1000, 1334}, // ceil(1,000,000 / 750)
		{"anthropic", 200, 200, 54},     // ceil(40,000 / 750)
		{"anthropic", 750, 1, 1},
		{"Anthropic", 1092, 1092, 1533}, // fitted to 1.15 MP: 1072×1072
		{"anthropic", 3136, 784, 820},   // 1568×392
		{"anthropic", -1, 5, 1533},      // unknown: the pixel cap
	}
	for _, c := range cases {
		if got := ImageTokens(c.kind, c.w, c.h); got != c.want {
			t.Errorf("ImageTokens(%q, %d, %d) = %d, want %d", c.kind, c.w, c.h, got, c.want)
		}
	}
}

func TestMessageCountsImages(t *testing.T) {
	c := For("fake")
	text := llm.Message{Role: llm.RoleUser, Text: "what is this?"}
	with := text
	with.Images = []llm.Image{{MIME: llm.MIMEPNG, Width: 1024, Height: 1024}, {MIME: llm.MIMEPNG, Width: 64, Height: 48}}
	want := Message(c, text) + max(1399, 765) + max(5, 255)
	if got := Message(c, with); got != want {
		t.Errorf("Message with two images = %d, want %d", got, want)
	}
}
