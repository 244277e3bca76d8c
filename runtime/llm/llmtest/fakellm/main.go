// Command fakellm runs the llmtest fake model server, for browser tests and for trying
// Wisp without an API key:
//
//	fakellm --addr 127.0.0.1:0 --delay 20ms --script turns.json --window 6000
//
// It prints one line, "fake LLM listening on http://127.0.0.1:PORT", answers chat
// requests with the scripted turns (a JSON array of llmtest.Turn) in order and then
// echoes the last user message word by word, and exits 0 on SIGINT or SIGTERM.
//
// A turn with a "when" is a route, not a turn in line: it answers every request it
// matches, before the turns in line, and is never used up. For example
//
//	{"when": {"systemContains": "Summarize"}, "text": "Earlier: the user asked about Lisbon."}
//
// answers every summary request whose system prompt says "Summarize";
// "lastUserContains" matches the last user message; both must match when both are
// given (llmtest.When).
//
// --window N gives the model a context window of N tokens (llmtest's SetWindow): a
// prompt longer than that gets the provider's own "context too long" error, and the
// model lists and Ollama's /api/show report N.
//
// Images in user messages are decoded and described by the echo ("I see 1 image:
// 64×48 image/png. You said: …"). --no-vision makes the model blind: Ollama's
// /api/show lists no "vision" capability and a request with images is refused.
// It serves OpenAI's audio API on the same port: POST /v1/audio/speech answers a
// 24 kHz WAV tone lasting 60 ms per character of input (--speech-delay d delays its
// first byte) and POST /v1/audio/transcriptions answers --transcript "text" ("What
// is the weather like today?" by default), so voice.tts.baseURL and
// voice.stt.baseURL can both be http://127.0.0.1:PORT/v1.
//
// Point Wisp at it with WISP_PROVIDER=openai WISP_BASE_URL=http://127.0.0.1:PORT/v1
// WISP_MODEL=fake (or WISP_PROVIDER=anthropic WISP_BASE_URL=http://127.0.0.1:PORT).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
