package llm

import "strings"

// contextTooLongCodes are error types and codes that mean the prompt does not fit:
// OpenAI's (and Groq's, DeepSeek's, OpenRouter's) code, llama.cpp server's type.
var contextTooLongCodes = []string{"context_length_exceeded", "exceed_context_size_error"}

// contextTooLongPhrases are what servers say, lower case, when the prompt does not
// fit the model's context window:
//   - OpenAI, vLLM, OpenRouter, DeepSeek, Mistral: "This model's maximum context
//     length is 4096 tokens. However, your messages resulted in …"
//   - Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
//   - llama.cpp server: "request (4476 tokens) exceeds the available context size
//     (4096 tokens), try increasing it"
//   - LM Studio: "Trying to keep the first 10136 tokens when context the overflows.
//     However, the model is loaded with context length of only 7866 tokens…",
//     "The number of tokens to keep from the initial prompt is greater than the
//     context length", and its MLX engine's "Context size has been exceeded"
//   - Ollama (when it does not truncate): "the input length exceeds the context length"
//   - Google's OpenAI-compatible endpoint: "The input token count (N) exceeds the
//     maximum number of tokens allowed (M)"
var contextTooLongPhrases = []string{
	"maximum context length",
	"prompt is too long",
	"exceeds the available context size",
	"when context the overflows",
	"loaded with context length of only",
	"greater than the context length",
	"context size has been exceeded",
	"exceeds the context length",
	"exceeds context length",
	"context length exceeded",
	"exceeds the maximum number of tokens allowed",
}

// refine makes kind KindContextLength when the error says the prompt does not fit.
// Only a rejected request or a server error is refined: an authentication or rate
// limit error ("tokens per minute") keeps its kind.
func (p providerError) refine(kind ErrorKind) ErrorKind {
	if kind != KindBadRequest && kind != KindServer {
		return kind
	}
	for _, code := range contextTooLongCodes {
		if p.Type == code || p.CodeText == code {
			return KindContextLength
		}
	}
	msg := strings.ToLower(p.Message)
	for _, phrase := range contextTooLongPhrases {
		if strings.Contains(msg, phrase) {
			return KindContextLength
		}
	}
	return kind
}
