package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// run serves until ctx ends and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	delay := fs.Duration("delay", 20*time.Millisecond, "delay between the words of echoed replies")
	scriptPath := fs.String("script", "", "JSON file with an array of turns to reply first")
	callIDs := fs.String("call-ids", "scripted", "tool call ids: scripted, omitted (none sent) or repeated (call_0 for every call)")
	window := fs.Int("window", 0, "context window in tokens: a longer prompt gets the provider's \"context too long\" error (0: none)")
	noVision := fs.Bool("no-vision", false, "the model does not see images: Ollama's /api/show lists no \"vision\" capability, and a request with images is refused")
	transcript := fs.String("transcript", llmtest.DefaultTranscript, "the text every POST /v1/audio/transcriptions answers")
	speechDelay := fs.Duration("speech-delay", 0, "delay before the first byte of every POST /v1/audio/speech answer")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ids, ok := map[string]llmtest.CallIDs{"scripted": llmtest.CallIDsAsScripted, "omitted": llmtest.CallIDsOmitted,
		"repeated": llmtest.CallIDsRepeated}[*callIDs]
	if !ok {
		fmt.Fprintf(stderr, "fakellm: --call-ids %q: use scripted, omitted or repeated\n", *callIDs)
		return 2
	}
	if *speechDelay < 0 {
		fmt.Fprintf(stderr, "fakellm: --speech-delay %s: want 0 or more\n", *speechDelay)
		return 2
	}
	if *window < 0 {
		fmt.Fprintf(stderr, "fakellm: --window %d: want 0 or more tokens\n", *window)
		return 2
	}
	var sc script
	if *scriptPath != "" {
		var err error
		if sc, err = readScript(*scriptPath); err != nil {
			fmt.Fprintln(stderr, "fakellm:", err)
			return 1
		}
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "fakellm:", err)
		return 1
	}
	srv := llmtest.Serve(l)
	defer srv.Close()
	srv.SetCallIDs(ids)
	srv.SetWindow(*window)
	srv.SetVision(!*noVision)
	srv.SetTranscript(*transcript)
	srv.SetSpeechDelay(*speechDelay)
	for _, r := range sc.routes {
		srv.Route(r.when, r.turn)
	}
	srv.Script(sc.turns...)
	srv.Fallback(llmtest.Echo(*delay))
	fmt.Fprintf(stdout, "fake LLM listening on %s\n", srv.URL)
	<-ctx.Done()
	return 0
}

// script is a script file: the turns that answer requests in order, and the routes
// (turns with a "when") that answer every request they match.
type script struct {
	turns  []llmtest.Turn
	routes []route
}

type route struct {
	when llmtest.When
	turn llmtest.Turn
}

// readScript reads a JSON array of turns.
func readScript(path string) (script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return script{}, fmt.Errorf("read script: %w", err)
	}
	sc, err := parseScript(data)
	if err != nil {
		return script{}, fmt.Errorf("script %s: %w", path, err)
	}
	return sc, nil
}

func parseScript(data []byte) (script, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return script{}, errors.New("want a JSON array of turns")
		}
		return script{}, err
	}
	var sc script
	for i, item := range items {
		turn, when, err := parseItem(item)
		if err != nil {
			return script{}, fmt.Errorf("turn %d: %w", i, err)
		}
		if when != nil {
			sc.routes = append(sc.routes, route{*when, turn})
		} else {
			sc.turns = append(sc.turns, turn)
		}
	}
	return sc, nil
}

// parseItem reads one turn, and its "when" if it has one.
func parseItem(item json.RawMessage) (llmtest.Turn, *llmtest.When, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(item, &fields); err != nil {
		return llmtest.Turn{}, nil, err
	}
	var when *llmtest.When
	if raw, ok := fields["when"]; ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&when); err != nil || when == nil {
			return llmtest.Turn{}, nil, fmt.Errorf("when: want {\"systemContains\": ..., \"lastUserContains\": ...}: %v", err)
		}
		if err := when.Check(); err != nil {
			return llmtest.Turn{}, nil, err
		}
		delete(fields, "when")
		item, _ = json.Marshal(fields)
	}
	var turn llmtest.Turn
	if err := json.Unmarshal(item, &turn); err != nil {
		return llmtest.Turn{}, nil, err
	}
	return turn, when, nil
}
