package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/speech"
)

// toneMs is how long a reply's tone shows on the avatar's face.
const toneMs = 4000

// maxShownRuns bounds the runs remembered as having shown an expression (a run that
// never ends well is not forgotten otherwise).
const maxShownRuns = 256

// expressions sets the avatar's face (docs/emotes.md, "Expressions"): the agent's
// SHOW_EXPRESSION, POST /api/expression, and a reply's tone at its end when the agent
// showed none in that run.
type expressions struct {
	events wire.Events
	log    *slog.Logger

	mu    sync.Mutex
	shown map[string]bool // runs in which the agent showed an expression
}

var _ api.Expressions = (*expressions)(nil)

// newExpressions offers SHOW_EXPRESSION to the agent.
func (a *App) newExpressions() error {
	a.face = &expressions{events: a.events, log: a.log.With("component", "expressions"), shown: map[string]bool{}}
	return a.actions.Register(runtime.Action{
		Name: "SHOW_EXPRESSION",
		Description: "Show a feeling on your avatar's face, which the user sees next to the chat; it fades " +
			"back after a few seconds. Use it now and then when a moment calls for it (happy at good news, " +
			"sad at bad news, surprised at a surprise), at most once per reply and not in every reply.",
		Schema:  expressionSchema,
		Handler: a.face.action,
	})
}

// agentExpressions are the expressions the agent may show (neutral is the rest).
func agentExpressions() []wire.ExpressionName {
	return slices.DeleteFunc(slices.Clone(wire.ExpressionNames), func(n wire.ExpressionName) bool { return n == wire.ExpressionNeutral })
}

func expressionSchema() json.RawMessage {
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"expression": map[string]any{"type": "string", "enum": agentExpressions(), "description": "The feeling to show"},
			"intensity": map[string]any{"type": "number", "minimum": 0, "maximum": 1,
				"description": "How strongly, from 0 to 1 (default 0.8)"},
		},
		"required": []string{"expression"},
	})
	return schema
}

// action is SHOW_EXPRESSION: a bad expression or intensity is an error for the model
// and shows nothing.
func (x *expressions) action(_ context.Context, call runtime.Call) (string, error) {
	var args struct {
		Expression wire.ExpressionName `json:"expression"`
		Intensity  *float64            `json:"intensity"`
	}
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return "", fmt.Errorf("arguments: %w", err)
	}
	if !slices.Contains(agentExpressions(), args.Expression) {
		return "", fmt.Errorf("unknown expression %q: choose one of %v", args.Expression, agentExpressions())
	}
	intensity := 0.8
	if args.Intensity != nil {
		intensity = *args.Intensity
	}
	if !(intensity > 0 && intensity <= 1) {
		return "", fmt.Errorf("intensity must be above 0 and at most 1, not %v", intensity)
	}
	x.mu.Lock()
	if len(x.shown) >= maxShownRuns {
		clear(x.shown)
	}
	x.shown[call.RunID] = true
	x.mu.Unlock()
	x.events.Publish(wire.NewExpression(args.Expression, intensity, 0, "agent"))
	return fmt.Sprintf("Your avatar looks %s.", args.Expression), nil
}

// Show implements api.Expressions.
func (x *expressions) Show(_ context.Context, e wire.Expression) { x.events.Publish(e) }

// replied shows a reply's tone when the agent showed no expression in its run
// (chat.Options.Replied).
func (x *expressions) replied(r chat.Reply) {
	x.mu.Lock()
	shown := x.shown[r.RunID]
	delete(x.shown, r.RunID)
	x.mu.Unlock()
	if shown {
		return
	}
	if name, intensity, ok := speech.Tone(r.Text); ok {
		x.events.Publish(wire.NewExpression(wire.ExpressionName(name), intensity, toneMs, "tone"))
	}
}

// speaks says whether a run starting now speaks its reply: speak replies is on and
// speech out is set up (chat.Options.Speak).
func (a *App) speaks() bool {
	v := a.settings.Live().Voice
	return v.SpeakReplies && v.TTS.BaseURL != ""
}
