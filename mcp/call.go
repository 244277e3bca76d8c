package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress is a progress notification of a running call.
type Progress struct {
	Progress, Total float64 // Total is 0 when unknown
	Message         string
}

// call runs one of the server's tools; progress (if set) hears its progress
// notifications. A server still starting is waited for (see ready); one that is not
// running otherwise fails the call at once.
func (s *server) call(ctx context.Context, tool string, args json.RawMessage, progress func(Progress)) (Result, error) {
	session, err := s.ready(ctx)
	if err != nil {
		return Result{}, err
	}
	s.mu.Lock()
	s.nextToken++
	token := "wisp-" + strconv.Itoa(s.nextToken)
	if progress != nil {
		s.progress[token] = progress
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.progress, token)
		s.mu.Unlock()
	}()
	params := &sdk.CallToolParams{Name: tool, Arguments: args}
	if progress != nil {
		params.SetProgressToken(token)
	}
	res, err := session.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, context.Cause(ctx)
		}
		return Result{}, fmt.Errorf("MCP server %s: %w", s.name, err)
	}
	return resultOf(res), nil
}

// ready returns the server's session, waiting while it starts (at most StartTimeout,
// which bounds a start anyway): a call approved as Wisp starts, or right after a
// restart of the server, finds it up instead of failing.
func (s *server) ready(ctx context.Context) (*sdk.ClientSession, error) {
	timer := time.NewTimer(s.m.o.StartTimeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		session, state, lastError, moved := s.session, s.state, s.lastError, s.moved
		s.mu.Unlock()
		if session != nil {
			return session, nil
		}
		if state != Starting {
			return nil, notRunning(s.name, state, lastError)
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-s.ctx.Done():
			return nil, fmt.Errorf("MCP server %s was stopped before it started", s.name)
		case <-timer.C:
			return nil, notRunning(s.name, state, lastError)
		}
	}
}

func notRunning(name, state, lastError string) error {
	switch {
	case state == Disabled:
		return fmt.Errorf("MCP server %s is turned off", name)
	case lastError != "" && state != Running:
		return fmt.Errorf("MCP server %s is not running (%s; last error: %s)", name, state, lastError)
	}
	return fmt.Errorf("MCP server %s is not running (%s)", name, state)
}

func (s *server) onProgress(p *sdk.ProgressNotificationParams) {
	if p == nil {
		return
	}
	token, ok := p.ProgressToken.(string)
	if !ok {
		return
	}
	s.mu.Lock()
	fn := s.progress[token]
	s.mu.Unlock()
	if fn != nil {
		fn(Progress{Progress: p.Progress, Total: p.Total, Message: headTail(p.Message, maxProgressMessage)})
	}
}
