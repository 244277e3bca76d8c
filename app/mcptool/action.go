// Package mcptool makes the tools of MCP servers the agent's actions: each one
// asks the user first through the approval gate (unless they allowed that tool for
// good), then calls the tool, its progress shown in the chat as the action's
// progressive callback and its result (or its error) given to the model.
package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/mdquote"
	"github.com/wispapp/wisp/mcp"
	"github.com/wispapp/wisp/runtime"
)

// MaxArgsBytes bounds the arguments the model may pass a tool.
const MaxArgsBytes = 256 << 10

// Caller calls a server's tool (mcp.Manager).
type Caller interface {
	Call(ctx context.Context, server, tool string, args json.RawMessage, progress func(mcp.Progress)) (mcp.Result, error)
}

var _ Caller = (*mcp.Manager)(nil)

// Options are what the actions need.
type Options struct {
	Caller Caller
	// Approvals asks the user (approval.Guard).
	Approvals *approval.Service
	// Tick is the least time between two progress updates shown in the chat (250 ms):
	// a server that reports progress a thousand times a second writes a few lines.
	Tick time.Duration
	Now  func() time.Time
}

// Actions are the agent's actions for tools.
func Actions(tools []mcp.Tool, o Options) []runtime.Action {
	if o.Tick <= 0 {
		o.Tick = 250 * time.Millisecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	out := make([]runtime.Action, 0, len(tools))
	for _, t := range tools {
		h := &handler{o: o, tool: t}
		out = append(out, approval.Guard(o.Approvals, approval.Guarded[json.RawMessage]{
			Action: runtime.Action{Name: t.Action, Description: description(t), Parameters: parameters(t.InputSchema)},
			Check:  h.check, Run: h.call,
		}))
	}
	return out
}

// Base is what a grant of the tool names: "server.tool".
func Base(server, tool string) string { return server + "." + tool }

func description(t mcp.Tool) string {
	d := t.Description
	if d == "" {
		d = t.Title
	}
	return fmt.Sprintf("%s (tool %q of the MCP server %q; the user is asked before each call unless they allowed it for good)", d, t.Name, t.Server)
}

// parameters is the tool's input schema as the model APIs take it: an object schema
// (a server's schema that is not one is replaced by an empty object schema).
func parameters(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) != nil || m == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if t, ok := m["type"]; ok && t != "object" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	if _, ok := m["properties"]; !ok {
		m["properties"] = map[string]any{}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return out
}

type handler struct {
	o    Options
	tool mcp.Tool
}

// check reads the call's arguments: what the user is asked is the tool, its server
// and the arguments, and a grant names the tool ("server.tool").
func (h *handler) check(_ context.Context, call runtime.Call) (json.RawMessage, approval.Request, error) {
	args, err := checkArgs(call.Args)
	if err != nil {
		return nil, approval.Request{}, err
	}
	t := h.tool
	return args, approval.Request{Bases: []string{Base(t.Server, t.Name)}, Detail: approval.ToolCall{
		Server: t.Server, Tool: t.Name, Title: t.Title, Description: t.Description,
		Arguments: args, Annotations: Annotations(t)}}, nil
}

// call runs the tool, its progress shown in the chat.
func (h *handler) call(ctx context.Context, call runtime.Call, args json.RawMessage) (string, error) {
	t := h.tool
	name := mdquote.Inline(Base(t.Server, t.Name))
	call.Report(runtime.Event{Type: runtime.EventToolStatus, Data: runtime.ToolStatus{Status: runtime.ToolExecuting}})
	call.Callback("Calling "+name+"…", runtime.MergeReplace)
	start := h.o.Now()
	res, err := h.o.Caller.Call(ctx, t.Server, t.Name, args, h.progress(call, name))
	took := h.o.Now().Sub(start).Seconds()
	switch {
	case err != nil:
		call.Callback(fmt.Sprintf("✗ %s failed after %.1f s", name, took), runtime.MergeReplace)
		return "", err
	case res.IsError:
		call.Callback(fmt.Sprintf("✗ %s answered with an error after %.1f s", name, took), runtime.MergeReplace)
		return "", errors.New(res.Text)
	}
	call.Callback(fmt.Sprintf("✓ %s done in %.1f s", name, took), runtime.MergeReplace)
	return res.Text, nil
}

// progress shows a tool's progress in the chat, at most once a tick.
func (h *handler) progress(call runtime.Call, name string) func(mcp.Progress) {
	var mu sync.Mutex
	var last time.Time
	return func(p mcp.Progress) {
		mu.Lock()
		now := h.o.Now()
		if now.Sub(last) < h.o.Tick {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		call.Callback("Calling "+name+"… "+progressText(p), runtime.MergeReplace)
	}
}

func progressText(p mcp.Progress) string {
	var s string
	if p.Total > 0 {
		s = fmt.Sprintf("%.0f%%", 100*min(p.Progress/p.Total, 1))
	} else {
		s = fmt.Sprintf("%g", p.Progress)
	}
	if p.Message != "" {
		s += ": " + mdquote.Inline(p.Message)
	}
	return s
}

// checkArgs requires a JSON object (nothing or null means {}) of bounded size.
func checkArgs(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if len(raw) > MaxArgsBytes {
		return nil, fmt.Errorf("the arguments are longer than %d bytes", MaxArgsBytes)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errors.New("the arguments must be a JSON object")
	}
	return raw, nil
}

// Annotations are what the server says of a tool, as the wire shows them.
func Annotations(t mcp.Tool) *wire.ToolAnnotations {
	a := t.Annotations
	if a == nil {
		return nil
	}
	ro, idem := a.ReadOnlyHint, a.IdempotentHint
	return &wire.ToolAnnotations{Title: a.Title, ReadOnlyHint: &ro, DestructiveHint: a.DestructiveHint,
		IdempotentHint: &idem, OpenWorldHint: a.OpenWorldHint}
}
