package tokens

import (
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// The image token figures of each provider's documentation.
const (
	// Anthropic ("Vision", "Calculate image costs"): tokens = width × height / 750,
	// after the image is fitted within ImageLimitsFor("anthropic").
	anthropicPixelsPerToken = 750
	// OpenAI ("Images and vision", high detail): 85 tokens, plus 170 per 512 px
	// tile of the image fitted within 2048×2048 then to a 768 px short side.
	openAIBaseTokens = 85
	openAITileTokens = 170
	openAITile       = 512
)

// ImageTokens estimates the tokens an image of w×h pixels takes in a request to
// the provider kind names (llm.Config.Kind): Anthropic's w·h/750 (rounded up) after
// its fit, OpenAI's high-detail 85 + 170 per 512 px tile after its fit for every
// other kind (Ollama, LM Studio and llama.cpp models count their own ways, mostly
// fewer). A size that is not positive counts as the largest image the provider
// takes unscaled.
func ImageTokens(kind string, w, h int) int {
	lim := llm.ImageLimitsFor(kind)
	if w <= 0 || h <= 0 {
		w, h = largest(lim)
	}
	w, h = lim.Fit(w, h)
	if strings.EqualFold(strings.TrimSpace(kind), llm.ProviderAnthropic) {
		return (w*h + anthropicPixelsPerToken - 1) / anthropicPixelsPerToken
	}
	tiles := ceilDiv(w, openAITile) * ceilDiv(h, openAITile)
	return openAIBaseTokens + openAITileTokens*tiles
}

// Image is the tokens img takes when the provider is not known: the larger of
// Anthropic's and OpenAI's figures, as Message counts it.
func Image(img llm.Image) int {
	return max(ImageTokens(llm.ProviderAnthropic, img.Width, img.Height), ImageTokens(llm.ProviderOpenAI, img.Width, img.Height))
}

// largest is the size of the image that costs the most within lim: its long edge
// at MaxEdge, its short edge at MaxShortEdge (or MaxEdge), then fitted.
func largest(lim llm.ImageLimits) (int, int) {
	short := lim.MaxShortEdge
	if short == 0 {
		short = lim.MaxEdge
	}
	return lim.Fit(lim.MaxEdge, short)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
