package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wispapp/wisp/runtime/llm"
)

// The tools of a deliberation: the model must choose one.
const (
	ToolSpeak      = "speak"
	ToolStaySilent = "stay_silent"
)

// ErrNoDecision means the model answered a deliberation without choosing to speak or
// to stay silent.
var ErrNoDecision = errors.New("the model chose neither to speak nor to stay silent")

// Deliberation is a private question to the agent: what happened, and whether to say
// something about it. Nothing of it is saved in a conversation.
type Deliberation struct {
	// Instructions are added to the character's system prompt.
	Instructions string
	// Situation is what the agent is shown (the only user message of the context).
	Situation string
}

// Decision is the agent's answer to a Deliberation.
type Decision struct {
	Speak  bool
	Text   string // what to say, when Speak
	Reason string // why it stays silent, when not Speak
	// Thoughts is what the model wrote or reasoned besides the decision.
	Thoughts string
	Usage    llm.Usage
}

var (
	speakSchema  = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"What to tell the user, in your own voice"}},"required":["text"]}`)
	silentSchema = json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","description":"Why nothing needs saying now"}},"required":["reason"]}`)
)

// decisionTools are the only tools a deliberation offers.
var decisionTools = []llm.Tool{
	{Name: ToolSpeak, Description: "Say something to the user now. Use it only when it is worth interrupting them.", Parameters: speakSchema},
	{Name: ToolStaySilent, Description: "Say nothing this time. This is the usual choice.", Parameters: silentSchema},
}

// Decide makes one model call in which the agent must either speak or stay silent.
// onThought, when set, receives what the model writes or reasons as it streams.
// A reply that calls neither tool is ErrNoDecision; its text is in Thoughts.
func (a *Agent) Decide(ctx context.Context, d Deliberation, onThought func(string)) (Decision, error) {
	prov, err := a.Provider()
	if err != nil {
		return Decision{}, err
	}
	set := a.opts.Settings()
	system := a.characterPrompt(set)
	if d.Instructions != "" {
		system += "\n\n" + d.Instructions
	}
	req := llm.Request{
		Model: set.Model, System: system, Tools: decisionTools,
		Messages:    []llm.Message{{Role: llm.RoleUser, Text: d.Situation}},
		Temperature: set.Temperature, MaxTokens: set.MaxTokens, ThinkingBudget: set.ThinkingBudget,
	}
	var thoughts strings.Builder
	t := &turn{a: a, emit: func(ev Event, _ Fold) {
		var text string
		switch e := ev.Data.(type) {
		case TextDelta:
			text = e.Text
		case Thinking:
			text = e.Text
		}
		thoughts.WriteString(text)
		if onThought != nil && text != "" {
			onThought(text)
		}
	}}
	resp, err := t.stream(ctx, prov, req)
	dec := Decision{Thoughts: strings.TrimSpace(thoughts.String()), Usage: resp.Usage}
	if err != nil {
		return dec, err
	}
	return decisionFrom(dec, resp.ToolCalls)
}

// decisionFrom reads the first decision tool call.
func decisionFrom(dec Decision, calls []llm.ToolCall) (Decision, error) {
	for _, c := range calls {
		var args struct{ Text, Reason string }
		switch c.Name {
		case ToolSpeak:
			if err := json.Unmarshal(c.Arguments, &args); err != nil {
				return dec, fmt.Errorf("speak: arguments: %w", err)
			}
			if strings.TrimSpace(args.Text) == "" {
				return dec, errors.New("speak: the text is empty")
			}
			dec.Speak, dec.Text = true, strings.TrimSpace(args.Text)
			return dec, nil
		case ToolStaySilent:
			_ = json.Unmarshal(c.Arguments, &args) // a reason is nice to have, not required
			dec.Reason = strings.TrimSpace(args.Reason)
			return dec, nil
		}
	}
	return dec, ErrNoDecision
}
