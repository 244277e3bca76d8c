package wire

import (
	"encoding/json"

	"github.com/wispapp/wisp/internal/jsonlist"
)

// TypeMCPServers is the /ws frame with every MCP server, sent when any of them
// changes (its status, tools or settings).
const TypeMCPServers = "mcp-servers"

// MCPServer is one MCP server as GET /api/mcp/servers and the mcp-servers frame
// show it (docs/mcp.md).
type MCPServer struct {
	Name      string          `json:"name"`
	Status    MCPServerStatus `json:"status"`
	Config    MCPServerConfig `json:"config"`
	Tools     []MCPTool       `json:"tools"`
	LastError string          `json:"lastError"`
	Stderr    []string        `json:"stderr"`
	Restarts  int             `json:"restarts"`
	RetryAt   *string         `json:"retryAt"`
	Since     string          `json:"since"`
}

// MCPServerConfig is a server's settings without their secrets: the names of its
// env variables and headers, never their values.
type MCPServerConfig struct {
	Transport  MCPTransport `json:"transport"`
	Command    string       `json:"command"`
	Args       []string     `json:"args"`
	Cwd        string       `json:"cwd"`
	URL        string       `json:"url"`
	EnvKeys    []string     `json:"envKeys"`
	HeaderKeys []string     `json:"headerKeys"`
	Disabled   bool         `json:"disabled"`
}

// MCPTool is one tool of a server: its name there, the agent's name for it, and
// what the server says of it.
type MCPTool struct {
	Name        string           `json:"name"`
	Action      string           `json:"action"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	InputSchema json.RawMessage  `json:"inputSchema"`
	Annotations *ToolAnnotations `json:"annotations"`
}

// MCPServers is the mcp-servers frame.
type MCPServers struct {
	Head
	Servers []MCPServer `json:"servers"`
}

// NewMCPServers is an mcp-servers frame.
func NewMCPServers(servers []MCPServer) MCPServers {
	return MCPServers{Head{TypeMCPServers}, jsonlist.NonNil(servers)}
}

func exampleMCPServers() []MCPServer {
	yes, no := true, false
	retry := "2025-11-21T09:00:05.000Z"
	return []MCPServer{
		{Name: "files", Status: MCPRunning, Since: exISO, Stderr: []string{"Secure MCP Filesystem Server running on stdio"},
			Config: MCPServerConfig{Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/ada"},
				Cwd: "/home/ada", EnvKeys: []string{"DEBUG"}, HeaderKeys: []string{}},
			Tools: []MCPTool{{Name: "read_file", Action: "files__read_file", Title: "Read a file", Description: "Reads a file",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
				Annotations: &ToolAnnotations{Title: "Read a file", ReadOnlyHint: &yes, DestructiveHint: &no, IdempotentHint: &yes, OpenWorldHint: &no}}}},
		{Name: "tracker", Status: MCPFailed, Since: exISO, LastError: "the server exited (exit status 1)",
			Stderr: []string{"error: TRACKER_TOKEN is not set"}, Restarts: 3, RetryAt: &retry, Tools: []MCPTool{},
			Config: MCPServerConfig{Transport: "http", Args: []string{}, URL: "https://tracker.example.com/mcp",
				EnvKeys: []string{}, HeaderKeys: []string{"Authorization"}, Disabled: false}},
	}
}
