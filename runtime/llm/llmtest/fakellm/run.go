package main

import (
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
	script := fs.String("script", "", "JSON file with an array of turns to reply first")
	callIDs := fs.String("call-ids", "scripted", "tool call ids: scripted, omitted (none sent) or repeated (call_0 for every call)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ids, ok := map[string]llmtest.CallIDs{"scripted": llmtest.CallIDsAsScripted, "omitted": llmtest.CallIDsOmitted,
		"repeated": llmtest.CallIDsRepeated}[*callIDs]
	if !ok {
		fmt.Fprintf(stderr, "fakellm: --call-ids %q: use scripted, omitted or repeated\n", *callIDs)
		return 2
	}
	var turns []llmtest.Turn
	if *script != "" {
		var err error
		if turns, err = readScript(*script); err != nil {
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
	srv.Script(turns...)
	srv.Fallback(llmtest.Echo(*delay))
	fmt.Fprintf(stdout, "fake LLM listening on %s\n", srv.URL)
	<-ctx.Done()
	return 0
}

// readScript reads a JSON array of turns.
func readScript(path string) ([]llmtest.Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	turns, err := parseScript(data)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	return turns, nil
}

func parseScript(data []byte) ([]llmtest.Turn, error) {
	var turns []llmtest.Turn
	if err := json.Unmarshal(data, &turns); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return nil, errors.New("want a JSON array of turns")
		}
		return nil, err
	}
	return turns, nil
}
