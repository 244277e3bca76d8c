package approval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/jsonlist"
)

// Ask is one call the user must allow: what every guarded call has (its Header), and
// what its kind shows (its Detail: a shell command, an MCP tool call).
type Ask struct {
	Header
	Detail Detail
}

// Header is what every guarded call asks with: whose call it is, the bases a grant
// may cover, and why none ever can.
type Header struct {
	RunID, ConversationID, CallID, ToolName string
	// Args are the call's arguments as the model sent them: the approval is bound to
	// them (see binding).
	Args                        json.RawMessage
	Bases, Grantable, AlwaysAsk []string
}

// Detail is what a kind of call shows the user. The kinds are this package's own,
// since every one is saved in the same record (request).
type Detail interface {
	Kind() string
	// Noun names such a call for the reason a run waits ("a shell command").
	Noun() string
	// Declined is how the model is told the user declined such a call.
	Declined() string
	fill(*request)
}

// Command is a shell command the agent would run (RUN_SHELL).
type Command struct {
	Command, Cwd, Reason string
}

func (Command) Kind() string     { return string(wire.KindShell) }
func (Command) Noun() string     { return "a shell command" }
func (Command) Declined() string { return "to run this command" }

func (c Command) fill(r *request) { r.Command, r.Cwd, r.Reason = c.Command, c.Cwd, c.Reason }

// ToolCall is a call of an MCP server's tool.
type ToolCall struct {
	Server, Tool, Title, Description string
	Arguments                        json.RawMessage
	Annotations                      *wire.ToolAnnotations
}

func (ToolCall) Kind() string     { return string(wire.KindMCP) }
func (ToolCall) Noun() string     { return "a tool call" }
func (ToolCall) Declined() string { return "this tool call" }

func (t ToolCall) fill(r *request) {
	r.Server, r.Tool, r.ToolTitle, r.ToolDescription = t.Server, t.Tool, t.Title, t.Description
	r.Arguments, r.Annotations = t.Arguments, t.Annotations
}

// request is what an approval asks, as saved.
type request struct {
	Kind            string                `json:"kind,omitempty"` // "" before MCP tools: shell
	Command         string                `json:"command"`
	Cwd             string                `json:"cwd"`
	Reason          string                `json:"reason"`
	Bases           []string              `json:"bases"`
	Grantable       []string              `json:"grantable"`
	AlwaysAsk       []string              `json:"alwaysAsk"`
	Server          string                `json:"server,omitempty"`
	Tool            string                `json:"tool,omitempty"`
	ToolTitle       string                `json:"toolTitle,omitempty"`
	ToolDescription string                `json:"toolDescription,omitempty"`
	Arguments       json.RawMessage       `json:"arguments,omitempty"`
	Annotations     *wire.ToolAnnotations `json:"annotations,omitempty"`
	Text            string                `json:"text,omitempty"` // a memo's, a task's prompt
	URL             string                `json:"url,omitempty"`
	Path            string                `json:"path,omitempty"`
	Root            string                `json:"root,omitempty"`
	Diff            string                `json:"diff,omitempty"`
	Schedule        string                `json:"schedule,omitempty"`
}

func (r request) kind() string {
	if r.Kind == "" {
		return string(wire.KindShell)
	}
	return r.Kind
}

func (a Ask) request() request {
	r := request{Kind: a.Detail.Kind(), Bases: jsonlist.NonNil(a.Bases),
		Grantable: jsonlist.NonNil(a.Grantable), AlwaysAsk: jsonlist.NonNil(a.AlwaysAsk)}
	a.Detail.fill(&r)
	return r
}

// binding is what an approval is bound to: a hash of the call's kind, its tool and
// its exact arguments (canonical JSON: the same call read back from the run log after
// a restart binds the same). An approval found again for a call with another binding
// releases nothing.
func (a Ask) binding() string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(a.Detail.Kind()), []byte(a.ToolName), canonical(a.Args)} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// canonical is JSON written one way whatever its spacing, key order or escapes
// (numbers kept as written); what is not JSON is taken as it is.
func canonical(raw json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
