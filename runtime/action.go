package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime/llm"
)

// CallbackFunc reports an action's progress to the user while it runs. An empty merge
// means MergeReplace: the action's status line is replaced. MergeAppend extends it.
type CallbackFunc func(text string, merge Merge)

// Call is one invocation of an action by the model.
type Call struct {
	ID       string
	Args     json.RawMessage // a JSON object
	Callback CallbackFunc
	// Report publishes a ToolStatus, RunPaused or RunResumed event of this call into
	// the run (the call's id and name, and a pause's step, are filled in).
	Report func(Event)
	// ConversationID is the conversation the turn belongs to ("" outside one), RunID
	// the run recording it ("" for a turn nobody records).
	ConversationID string
	RunID          string
	// CustomFunc and PatchFunc back Custom and Patch; nil drops what is sent.
	CustomFunc func(name string, data any)
	PatchFunc  func(ops ...jsonpatch.Op) error
}

// Custom publishes an event of this call for clients: seed 001's custom chunk
// {eventName, data}, kept in the run log. data must marshal to JSON.
func (c Call) Custom(name string, data any) {
	if c.CustomFunc != nil {
		c.CustomFunc(name, data)
	}
}

// Patch changes the run's state by RFC 6902 operations, all of them or none: an
// operation that does not apply, or a state that would outgrow MaxState, is refused
// with the reason and nothing is published.
func (c Call) Patch(ops ...jsonpatch.Op) error {
	if c.PatchFunc == nil {
		return nil
	}
	return c.PatchFunc(ops...)
}

// Action is something the model may ask Wisp to do.
type Action struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema of the arguments; nil means no arguments
	// Schema, when set, is asked for the parameters before every turn instead: for
	// actions whose choices change while Wisp runs (the emote ids).
	Schema func() json.RawMessage
	// Handler runs the action; what it returns (or the error) is fed back to the model.
	Handler func(ctx context.Context, call Call) (string, error)
	// Available, when set, says whether the action is offered now (the shell action
	// only while shell access is on); one that is not is unknown to the model.
	Available func() bool
	// Prompt, when set, is added to the system prompt of every model call that
	// offers the action (how to cite what RECALL found).
	Prompt string
}

func (a Action) available() bool { return a.Available == nil || a.Available() }

var actionName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// emptySchema is the parameters of an action that takes none.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// Registry holds the actions the agent offers. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	actions map[string]Action
	// group names the group of each action that came in one (SetGroup).
	group map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{actions: map[string]Action{}, group: map[string]string{}}
}

// Register adds an action; names are unique and made of letters, digits, _ and -.
func (r *Registry) Register(a Action) error {
	a, err := checked(a)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.actions[a.Name]; dup {
		return fmt.Errorf("action %s is already registered", a.Name)
	}
	r.actions[a.Name] = a
	return nil
}

// SetGroup replaces the actions of a group (the tools of MCP servers, which come and
// go while Wisp runs) with actions, in one step: a turn sees the old set or the new.
// An action that is not valid, or whose name another action has, is left out and
// said in the error; the others are set.
func (r *Registry) SetGroup(group string, actions []Action) error {
	var errs []error
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, g := range r.group {
		if g == group {
			delete(r.actions, name)
			delete(r.group, name)
		}
	}
	for _, a := range actions {
		a, err := checked(a)
		if err == nil {
			if _, dup := r.actions[a.Name]; dup {
				err = fmt.Errorf("action %s is already registered", a.Name)
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.actions[a.Name] = a
		r.group[a.Name] = group
	}
	return errors.Join(errs...)
}

// checked validates an action, defaulting its parameters.
func checked(a Action) (Action, error) {
	if !actionName.MatchString(a.Name) {
		return a, fmt.Errorf("action name %q: use 1-64 letters, digits, _ or -", a.Name)
	}
	if a.Handler == nil {
		return a, fmt.Errorf("action %s: no handler", a.Name)
	}
	if a.Parameters == nil {
		a.Parameters = emptySchema
	}
	var schema map[string]any
	if err := json.Unmarshal(a.Parameters, &schema); err != nil {
		return a, fmt.Errorf("action %s: parameters are not a JSON Schema object: %w", a.Name, err)
	}
	return a, nil
}

// Get returns the action with that name.
func (r *Registry) Get(name string) (Action, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.actions[name]
	if ok && !a.available() {
		return Action{}, false
	}
	return a, ok
}

// Prompts are the Prompts of the actions offered now, by name.
func (r *Registry) Prompts() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	for name, a := range r.actions {
		if a.Prompt != "" && a.available() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = r.actions[n].Prompt
	}
	return out
}

// Tools describes the actions to the model, sorted by name.
func (r *Registry) Tools() []llm.Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	tools := make([]llm.Tool, 0, len(r.actions))
	for _, a := range r.actions {
		if !a.available() {
			continue
		}
		params := a.Parameters
		if a.Schema != nil {
			params = a.Schema()
		}
		tools = append(tools, llm.Tool{Name: a.Name, Description: a.Description, Parameters: params})
	}
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools
}
