package api

import (
	"context"
	"net/http"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

// MCP is what the MCP server routes need (docs/mcp.md).
type MCP interface {
	Servers(ctx context.Context) []wire.MCPServer
	// Restart starts a server again now; fault.NotFound for a name nobody declared.
	Restart(ctx context.Context, name string) (wire.MCPServer, error)
	// Save declares or changes a server in wisp.json (created says which).
	Save(ctx context.Context, name string, edit MCPEdit) (server wire.MCPServer, created bool, err error)
	// Remove takes a server out of wisp.json; fault.NotFound if it is not there.
	Remove(ctx context.Context, name string) error
}

// MCPEdit is a server's settings as PUT /api/mcp/servers/{name} takes them. In Env
// and Headers a null value keeps the value the server has (a secret the client
// never saw); a name left out is removed.
type MCPEdit struct {
	Command  string             `json:"command"`
	Args     []string           `json:"args"`
	Cwd      string             `json:"cwd"`
	Env      map[string]*string `json:"env"`
	URL      string             `json:"url"`
	Headers  map[string]*string `json:"headers"`
	Disabled bool               `json:"disabled"`
}

func (s *Server) mcpRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/mcp/servers", s.handle(s.listMCP))
	mux.Handle("POST /api/mcp/servers/{name}/restart", s.handle(s.restartMCP))
	mux.Handle("PUT /api/mcp/servers/{name}", s.handle(s.saveMCP))
	mux.Handle("DELETE /api/mcp/servers/{name}", s.handle(s.removeMCP))
}

func (s *Server) listMCP(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, wire.MCPServerList{Servers: jsonlist.NonNil(s.mcp.Servers(r.Context()))})
}

func (s *Server) restartMCP(w http.ResponseWriter, r *http.Request) error {
	srv, err := s.mcp.Restart(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, wire.MCPServerBody{Server: srv})
}

func (s *Server) saveMCP(w http.ResponseWriter, r *http.Request) error {
	var in MCPEdit
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	srv, created, err := s.mcp.Save(r.Context(), r.PathValue("name"), in)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, wire.MCPServerBody{Server: srv})
}

func (s *Server) removeMCP(w http.ResponseWriter, r *http.Request) error {
	if err := s.mcp.Remove(r.Context(), r.PathValue("name")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
