// Command fakellm runs the llmtest fake model server, for browser tests and for trying
// Wisp without an API key:
//
//	fakellm --addr 127.0.0.1:0 --delay 20ms --script turns.json
//
// It prints one line, "fake LLM listening on http://127.0.0.1:PORT", answers chat
// requests with the scripted turns (a JSON array of llmtest.Turn) in order and then
// echoes the last user message word by word, and exits 0 on SIGINT or SIGTERM.
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
