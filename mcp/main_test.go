package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// TestMain doubles as a stdio MCP server: the tests start this binary again with
// WISP_MCP_TEST_SERVER=1 to have a real process to talk to (=huge: one that sends
// a message over the cap; =read: one that also reads files).
func TestMain(m *testing.M) {
	switch os.Getenv("WISP_MCP_TEST_SERVER") {
	case "huge":
		hugeServer()
	case "1", "read":
		s := stdioServer()
		if os.Getenv("WISP_MCP_TEST_SERVER") == "read" {
			addReadTool(s)
		}
		if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// hugeServer sends one message over the 16 MiB cap, then waits for its stdin to
// close, as a server would whose client stopped listening.
func hugeServer() {
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` +
		strings.Repeat("x", maxMessageBytes) + `"}}` + "\n"
	_, _ = os.Stdout.WriteString(line)
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

type envArgs struct {
	Name string `json:"name" jsonschema:"the variable"`
}

// stdioServer has one tool: env, which answers the value of a variable of its environment.
func stdioServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "Reads an environment variable"},
		func(_ context.Context, _ *sdk.CallToolRequest, in envArgs) (*sdk.CallToolResult, any, error) {
			v, ok := os.LookupEnv(in.Name)
			if !ok {
				v = "(unset)"
			}
			fmt.Fprintln(os.Stderr, "asked for", in.Name)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: v}}}, nil, nil
		})
	return s
}

type readArgs struct {
	Path string `json:"path" jsonschema:"the file"`
}

// addReadTool adds read, which answers a file's content, or a tool error saying why
// it could not be read.
func addReadTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{Name: "read", Description: "Reads a file"},
		func(_ context.Context, _ *sdk.CallToolRequest, in readArgs) (*sdk.CallToolResult, any, error) {
			b, err := os.ReadFile(in.Path)
			if err != nil {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}, nil, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil, nil
		})
}
