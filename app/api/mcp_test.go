package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestMCPRoutes(t *testing.T) {
	var saved []MCPEdit
	s := serveAPI(t, "", Options{MCP: fakeMCP{
		servers: func(context.Context) []wire.MCPServer { return []wire.MCPServer{{Name: "files"}} },
		restart: func(_ context.Context, name string) (wire.MCPServer, error) {
			if name != "files" {
				return wire.MCPServer{}, fault.NotFound.Errorf("no MCP server %q", name)
			}
			return wire.MCPServer{Name: name}, nil
		},
		save: func(_ context.Context, name string, e MCPEdit) (wire.MCPServer, bool, error) {
			saved = append(saved, e)
			return wire.MCPServer{Name: name}, name == "new", nil
		},
		remove: func(_ context.Context, name string) error { return nil },
	}})
	if got := s.call("GET", "/api/mcp/servers", nil, nil); got.status != 200 || len(got.body["servers"].([]any)) != 1 {
		t.Fatalf("list: %d %v", got.status, got.body)
	}
	if got := s.call("POST", "/api/mcp/servers/files/restart", nil, nil); got.status != 202 {
		t.Fatalf("restart: %d %v", got.status, got.body)
	}
	if got := s.call("POST", "/api/mcp/servers/nobody/restart", nil, nil); got.status != 404 {
		t.Fatalf("restart of nobody: %d %v", got.status, got.body)
	}
	secret := "s3cret"
	if got := s.call("PUT", "/api/mcp/servers/new", map[string]any{"command": "x", "env": map[string]any{"A": secret, "B": nil}}, nil); got.status != 201 {
		t.Fatalf("create: %d %v", got.status, got.body)
	}
	if got := s.call("PUT", "/api/mcp/servers/files", map[string]any{"url": "http://127.0.0.1:9/mcp"}, nil); got.status != 200 {
		t.Fatalf("change: %d %v", got.status, got.body)
	}
	if len(saved) != 2 || *saved[0].Env["A"] != secret || saved[0].Env["B"] != nil {
		t.Fatalf("saved %+v", saved)
	}
	if got := s.call("DELETE", "/api/mcp/servers/files", nil, nil); got.status != 204 {
		t.Fatalf("remove: %d", got.status)
	}
}
