package dialect

import (
	"encoding/json"
	"strings"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
)

// Seed003 is seed 003's dialect: SSE events with names: init, presence (what the
// agent is doing), delta ({"v": text}), action (tool calls and results, approval
// requests a client answers through POST /api/approvals/{id}), context (the ids and
// usage at the end) and error. Every event but delta carries an Envelope003.
type Seed003 struct{ session, request string }

// NewSeed003 returns an encoder for one seed-003 stream of a conversation (session)
// and run (request).
func NewSeed003(session, request string) *Seed003 { return &Seed003{session, request} }

// Event003 is one event of the dialect: its name and its data.
type Event003 struct {
	Name string
	Data any // Delta003 or Envelope003
}

// Delta003 is the data of a delta event.
type Delta003 struct {
	V string `json:"v"`
}

// Envelope003 is the data of every event but delta. An action's and the context's
// Data is a JSON document in a string, as in the seed.
type Envelope003 struct {
	SessionID string `json:"session_id"`
	RequestID string `json:"request_id"`
	Type      string `json:"type"`
	Source    string `json:"source"`
	Data      any    `json:"data,omitempty"`
}

// The documents in an action's or the context's data.
type (
	ToolCall003 struct {
		Arguments json.RawMessage `json:"arguments"`
		CallID    string          `json:"callId"`
		Name      string          `json:"name"`
	}
	ToolResult003 struct {
		CallID string  `json:"callId"`
		Error  *string `json:"error"`
		Name   string  `json:"name"`
		Result *string `json:"result"`
	}
	ApprovalRequest003 struct {
		Answer     string          `json:"answer"` // the route that answers it
		Approval   json.RawMessage `json:"approval"`
		ApprovalID string          `json:"approvalId"`
	}
	Context003 struct {
		ConversationID string     `json:"conversation_id"`
		MessageID      string     `json:"message_id"`
		RunID          string     `json:"run_id"`
		Usage          wire.Usage `json:"usage"`
	}
)

func (s *Seed003) envelope(typ, source string, data any) Envelope003 {
	return Envelope003{SessionID: s.session, RequestID: s.request, Type: typ, Source: source, Data: data}
}

func (s *Seed003) named(name, source string, data any) Event003 {
	return Event003{name, s.envelope(name, source, data)}
}

// Init is the event a stream starts with.
func (s *Seed003) Init() Event003 { return s.named("init", "model", nil) }

// Events are the seed-003 events of one run event (none: ErrSkip).
func (s *Seed003) Events(ev Event) ([]Event003, error) {
	switch d := ev.Event.Data.(type) {
	case runtime.TextDelta:
		if d.Text == "" {
			return nil, ErrSkip
		}
		return []Event003{{"delta", Delta003{d.Text}}}, nil
	case runtime.Callback:
		return []Event003{s.named("presence", "executor", ev.At.SegmentText)}, nil
	case runtime.Thinking:
		if d.Complete {
			return nil, ErrSkip
		}
		return []Event003{s.named("presence", "model", d.Text)}, nil
	case runtime.ToolStart:
		return []Event003{
			s.named("presence", "model", "calling "+d.Name),
			{"action", s.envelope("tool_call", "executor", jsonString(ToolCall003{d.Arguments, d.CallID, d.Name}))},
		}, nil
	case runtime.ToolEnd:
		res := ToolResult003{CallID: d.CallID, Name: d.Name}
		if d.Error != "" {
			res.Error = &d.Error
		} else {
			res.Result = &d.Result
		}
		return []Event003{{"action", s.envelope("tool_result", "executor", jsonString(res))}}, nil
	case runtime.RunPaused:
		ask := ApprovalRequest003{"POST /api/approvals/" + d.ApprovalID, d.Approval, d.ApprovalID}
		return []Event003{
			s.named("presence", "executor", "waiting for the user's approval"),
			{"action", s.envelope("approval_request", "executor", jsonString(ask))},
		}, nil
	case runtime.RunResumed:
		return []Event003{s.named("presence", "executor", "the user answered: "+d.Decision)}, nil
	case runtime.Output:
		c := Context003{s.session, d.MessageID, s.request, wire.NewUsage(d.Usage.InputTokens, d.Usage.OutputTokens, d.Usage.CacheReadTokens, d.Usage.CacheWriteTokens)}
		return []Event003{s.named("context", "model", jsonString(c))}, nil
	case runtime.Error:
		return []Event003{s.named("error", "model", d.Message)}, nil
	case runtime.Interrupted:
		return []Event003{s.named("error", "model", "The reply was interrupted: "+d.Reason)}, nil
	case runtime.Custom, runtime.StatePatch, runtime.ToolStatus, runtime.StreamResync,
		runtime.SummaryStart, runtime.SummaryDelta, runtime.SummaryEnd, runtime.Speech:
		return nil, ErrSkip // the seed has nothing for them
	}
	return nil, unknown(ev)
}

// Encode implements Encoder: the event's seed-003 events as SSE text, each
// "event: <name>\ndata: <json>\n\n".
func (s *Seed003) Encode(b []byte, ev Event) ([]byte, error) {
	events, err := s.Events(ev)
	if err != nil {
		return b, err
	}
	for _, e := range events {
		b = e.AppendSSE(b)
	}
	return b, nil
}

// AppendSSE appends the event as SSE text.
func (e Event003) AppendSSE(b []byte) []byte {
	data, _ := json.Marshal(e.Data) // plain structs and strings: cannot fail
	b = append(append(append(b, "event: "...), e.Name...), "\ndata: "...)
	return append(append(b, data...), "\n\n"...)
}

func jsonString(v any) string {
	data, _ := json.Marshal(v) // plain structs: cannot fail
	return string(data)
}

// Answer003 is the answer of a request with stream: false.
type Answer003 struct {
	SessionID string        `json:"session_id"`
	RequestID string        `json:"request_id"`
	Status    string        `json:"status"` // done, failed, waiting_for_approval
	Message   string        `json:"message"`
	Actions   []Envelope003 `json:"actions"`
	Context   *Envelope003  `json:"context,omitempty"`
	Error     string        `json:"error,omitempty"`
}

// Seed003Answer gathers a run's seed-003 events into one answer, which it encodes at
// the end of the run or when the run waits for an approval (stream: false).
type Seed003Answer struct {
	events *Seed003
	text   strings.Builder
	answer Answer003
}

// NewSeed003Answer returns an encoder of one answer of a conversation (session) and
// run (request).
func NewSeed003Answer(session, request string) *Seed003Answer {
	return &Seed003Answer{events: NewSeed003(session, request),
		answer: Answer003{SessionID: session, RequestID: request, Status: "done", Actions: []Envelope003{}}}
}

// Encode implements Encoder: ErrSkip until the answer is complete, then its JSON.
func (a *Seed003Answer) Encode(b []byte, ev Event) ([]byte, error) {
	events, err := a.events.Events(ev)
	if err != nil {
		return b, err
	}
	if e, ok := ev.Event.Data.(runtime.Error); ok && e.Recoverable {
		return b, ErrSkip // the run goes on
	}
	complete := false
	for _, e := range events {
		switch e.Name {
		case "delta":
			a.text.WriteString(e.Data.(Delta003).V)
		case "action":
			act := e.Data.(Envelope003)
			a.answer.Actions = append(a.answer.Actions, act)
			if act.Type == "approval_request" {
				a.answer.Status, complete = "waiting_for_approval", true
			}
		case "context":
			c := e.Data.(Envelope003)
			a.answer.Context, complete = &c, true
		case "error":
			a.answer.Status, a.answer.Error, complete = "failed", e.Data.(Envelope003).Data.(string), true
		}
	}
	if !complete {
		return b, ErrSkip
	}
	a.answer.Message = a.text.String()
	return appendJSON(b, a.answer)
}
