// Package tokens counts the tokens of text and of chat requests locally, without a
// network call, so Wisp can fit a conversation into a model's context window before
// it sends it.
//
// For OpenAI-family models the count is exact for the text: the o200k_base encoding
// (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1, o3, o4, gpt-oss) or cl100k_base (gpt-4,
// gpt-3.5 and other OpenAI-looking names), from github.com/tiktoken-go/tokenizer,
// whose vocabularies are compiled into the binary: nothing is downloaded at run time.
// An encoding is built the first time a count needs it, never at start-up, once per
// process: measured on a 2-core machine, o200k_base takes about 20 ms and keeps 7 MB
// of heap, cl100k_base half that. Both add about 10 MB to the binary. Counting runs
// at about 2 million tokens (10 MB of text) per second of CPU.
//
// Every other model (claude-*, llama, qwen, mistral, gemma, deepseek, "fake", an
// unknown name) gets a calibrated estimate: the cl100k_base count scaled by
// EstimateFactor (1.3), rounded up. The factor is chosen to over-estimate: the
// tokenizers these models use produce, on English prose and code, from about 0.9×
// (Llama 3, Qwen 2, Gemma: 128k–256k vocabularies close to or larger than cl100k's)
// to about 1.15–1.3× the cl100k count (Claude 3–4's tokenizer; Llama 2 and Mistral's
// 32k SentencePiece vocabularies), and more for non-Latin scripts. An over-estimate
// costs a little unused window; an under-estimate costs a "context too long" error.
// A Calibration learns the real ratio from the provider's reported prompt tokens.
//
// Counting never panics and stays linear in the input: text is tokenized in pieces of
// at most a few kilobytes cut at whitespace (a cut can only add a token), and invalid
// UTF-8 is counted as the replacement characters a tokenizer would see.
//
// It imports only package llm from Wisp, for the message types.
package tokens

import (
	"math"
	"strings"
)

// Counter counts the tokens of text for one model family.
type Counter interface {
	Count(text string) int
	Name() string // the encoding, e.g. "o200k_base", or "cl100k_base×1.3" for an estimate
}

// EstimateFactor scales the cl100k_base count for models whose tokenizer is not
// known; see the package doc.
const EstimateFactor = 1.3

// For returns the counter for a model name as a provider knows it ("gpt-4o",
// "openai/gpt-4.1-mini", "claude-sonnet-4-5", "llama3.2:3b"). It never loads an
// encoding: the first Count does.
func For(model string) Counter {
	switch family(model) {
	case familyO200k:
		return o200k
	case familyCl100k:
		return cl100k
	}
	return estimate
}

type modelFamily int

const (
	familyOther modelFamily = iota
	familyO200k
	familyCl100k
)

// family classifies a model name: the part after the last "/" (OpenRouter's
// "openai/gpt-4o"), without a fine-tune's "ft:" prefix, lower case.
func family(model string) modelFamily {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimPrefix(name, "ft:")
	for _, p := range []string{"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "gpt-oss", "codex-"} {
		if strings.HasPrefix(name, p) {
			return familyO200k
		}
	}
	for _, p := range []string{"o1", "o3", "o4"} {
		if name == p || strings.HasPrefix(name, p+"-") {
			return familyO200k
		}
	}
	for _, p := range []string{"gpt-", "gpt3", "gpt4", "text-embedding-", "text-davinci", "davinci", "babbage"} {
		if strings.HasPrefix(name, p) {
			return familyCl100k
		}
	}
	return familyOther
}

// scaled is an estimate: an encoding's count times a factor, rounded up.
type scaled struct {
	base   *encoding
	factor float64
	name   string
}

func (s scaled) Count(text string) int {
	if text == "" {
		return 0
	}
	return int(math.Ceil(float64(s.base.Count(text)) * s.factor))
}

func (s scaled) Name() string { return s.name }

var (
	o200k    = newEncoding("o200k_base")
	cl100k   = newEncoding("cl100k_base")
	estimate = scaled{base: cl100k, factor: EstimateFactor, name: "cl100k_base×1.3"}
)
