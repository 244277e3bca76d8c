package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/reply"
)

// DefaultMaxSteps bounds how many model calls one turn may make.
const DefaultMaxSteps = 8

// DefaultIdleTimeout is how long a model may send nothing at all (not even reasoning)
// before the step fails: a provider that stops talking must not hang a reply.
const DefaultIdleTimeout = 2 * time.Minute

// ErrShutdown is the cause of a turn's context when Wisp closes. An action that
// waits for the user leaves what it waits for as it is then: the run resumes after
// the next start.
var ErrShutdown = errors.New("Wisp is shutting down")

// ErrNoProvider means no usable model is configured.
var ErrNoProvider = errors.New("no model provider is configured")

// Options configure an Agent. Provider and Settings are read at the start of every
// turn, so the app can swap them while Wisp runs.
type Options struct {
	Provider func() (llm.Provider, error)
	Settings func() Settings
	Actions  *Registry
	MaxSteps int
	// IdleTimeout bounds the silence within one model call (default DefaultIdleTimeout).
	IdleTimeout time.Duration
	Logger      *slog.Logger
	// Memory, when set, is read at every model call (turns and deliberations) and
	// added to the system prompt: what the agent remembers about the user, already
	// bounded and delimited by its owner (app/memory); "" adds nothing.
	Memory func() string
}

// Agent runs turns.
type Agent struct {
	opts Options
}

// New builds an agent.
func New(opts Options) *Agent {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	if opts.Actions == nil {
		opts.Actions = NewRegistry()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Settings == nil {
		opts.Settings = func() Settings { return Settings{} }
	}
	return &Agent{opts: opts}
}

// Actions is the agent's action registry.
func (a *Agent) Actions() *Registry { return a.opts.Actions }

// Settings returns the settings the next turn will use.
func (a *Agent) Settings() Settings { return a.opts.Settings() }

// Provider returns the model provider the next turn will use.
func (a *Agent) Provider() (llm.Provider, error) {
	if a.opts.Provider == nil {
		return nil, ErrNoProvider
	}
	return a.opts.Provider()
}

// Input is what a turn starts from.
type Input struct {
	History []llm.Message // earlier messages of the conversation, oldest first
	Text    string        // the user's new message
	// Images are what the new message shows the model (fitted to the provider's limits).
	Images []llm.Image
	// ConversationID is where the turn happens and RunID the run recording it;
	// actions see both in their Call.
	ConversationID string
	RunID          string
	// MaxTokens, when above 0, bounds each model call of the turn instead of the
	// settings' (a /v1 client's max_tokens).
	MaxTokens int
	// Fitter, when set, fits every model call of the turn into the model's context
	// window (see Fitter).
	Fitter Fitter
}

// A Fitter keeps a turn's requests within the model's context window. Fit is called
// before every model call of the turn with the request about to be sent: it may
// shorten req.Messages (the turn goes on with the shortened ones) or fail the step.
// When the provider refuses a request before answering anything, Fit is called once
// more with its error (refused): nil means req was made to fit and the step is tried
// again, once; otherwise the error it returns ends the turn (refused itself when it
// cannot help). Sent tells it what the provider reported for a request it answered.
type Fitter interface {
	Fit(ctx context.Context, req *llm.Request, refused error) error
	Sent(req *llm.Request, usage llm.Usage)
}

// Result is a finished turn.
type Result struct {
	FullText   string
	History    []string // actionCallbackHistory
	Segments   []reply.Segment
	Usage      llm.Usage
	StopReason string // the model's last stop reason, or "max_steps"
	Steps      int
}

// turn is the state of one Turn call.
type turn struct {
	a     *Agent
	conv  string
	run   string
	emit  Emit
	reply reply.Reply // the fold of every event emitted
	usage llm.Usage
	// step is the model call now (from 1); stepMsg its message and pending the calls of
	// it not run yet (the one running first), for a pause (see callbackGate.report).
	step    int
	stepMsg llm.Message
	pending []llm.ToolCall
	// maxTokens bounds each model call (0: the settings').
	maxTokens int
	// thinking is set while the step's reasoning is open (its completion not sent).
	thinking bool
	state    runState
	// fitter fits each request into the context window (nil: none); deltas counts
	// what the model sent in the step now.
	fitter Fitter
	deltas int
}

// publish folds an event into the reply and emits it with the reply after it.
func (t *turn) publish(ev Event) {
	t.emit(ev, Apply(&t.reply, ev))
}

// Turn runs one user message to its end. emit is called synchronously, in order, for
// every event; the final event (output, error, interrupted) is left to the caller,
// which knows how the run ended. On failure the returned Result holds the partial reply.
func (a *Agent) Turn(ctx context.Context, in Input, emit Emit) (Result, error) {
	prov, err := a.Provider()
	if err != nil {
		return Result{}, err
	}
	t := &turn{a: a, emit: emit, conv: in.ConversationID, run: in.RunID, maxTokens: in.MaxTokens, fitter: in.Fitter}
	msgs := append(append([]llm.Message(nil), in.History...), llm.Message{Role: llm.RoleUser, Text: in.Text, Images: in.Images})
	return t.loop(ctx, prov, msgs, 1)
}

// loop makes model calls from step first on, running the actions each asks for, until
// the model answers without any or the step limit.
func (t *turn) loop(ctx context.Context, prov llm.Provider, msgs []llm.Message, first int) (Result, error) {
	a := t.a
	set := a.opts.Settings()
	tools := a.opts.Actions.Tools()
	res := Result{}
	for step := first; step <= a.opts.MaxSteps; step++ {
		res.Steps, t.step = step, step
		req := llm.Request{
			Model: set.Model, System: a.SystemPrompt(set), Messages: msgs, Tools: tools,
			Temperature: set.Temperature, MaxTokens: set.MaxTokens, ThinkingBudget: set.ThinkingBudget,
		}
		if t.maxTokens > 0 {
			req.MaxTokens = t.maxTokens
			if req.ThinkingBudget >= req.MaxTokens {
				req.ThinkingBudget = 0 // thinking must fit within the limit
			}
		}
		resp, err := t.call(ctx, prov, &req)
		msgs = req.Messages
		t.usage = t.usage.Add(resp.Usage)
		if err != nil {
			return t.result(res), err
		}
		res.StopReason = resp.StopReason
		for i := range resp.ToolCalls {
			resp.ToolCalls[i].WispID = newCallID()
		}
		t.stepMsg = llm.Message{Role: llm.RoleAssistant, Text: resp.Text, Thinking: resp.Thinking, ToolCalls: resp.ToolCalls}
		msgs = append(msgs, t.stepMsg)
		if len(resp.ToolCalls) == 0 {
			return t.result(res), nil
		}
		if step == a.opts.MaxSteps {
			a.opts.Logger.Warn("turn stopped at the step limit", "steps", step)
			res.StopReason = "max_steps"
			return t.result(res), nil
		}
		if msgs, err = t.runCalls(ctx, msgs, resp.ToolCalls, true); err != nil {
			return t.result(res), err
		}
	}
	return t.result(res), nil
}

// runCalls runs a step's calls in order and appends their answers to msgs. The first
// call's start was already published when startFirst is false (a resumed pause).
func (t *turn) runCalls(ctx context.Context, msgs []llm.Message, calls []llm.ToolCall, startFirst bool) ([]llm.Message, error) {
	for i, call := range calls {
		t.pending = calls[i:]
		msgs = append(msgs, t.runAction(ctx, call, startFirst || i > 0))
		if err := ctx.Err(); err != nil {
			return msgs, err
		}
	}
	t.pending = nil
	return msgs, nil
}

// call makes one step's model call through the turn's Fitter: fitted before it is
// sent, and fitted again and retried once when the provider refuses it before
// answering anything.
func (t *turn) call(ctx context.Context, prov llm.Provider, req *llm.Request) (llm.Response, error) {
	if t.fitter == nil {
		return t.stream(ctx, prov, *req)
	}
	if err := t.fitter.Fit(ctx, req, nil); err != nil {
		return llm.Response{}, err
	}
	t.deltas = 0
	resp, err := t.stream(ctx, prov, *req)
	if err != nil && t.deltas == 0 && ctx.Err() == nil {
		if ferr := t.fitter.Fit(ctx, req, err); ferr != nil {
			return resp, ferr
		}
		t.deltas = 0
		resp, err = t.stream(ctx, prov, *req)
		if err != nil && t.deltas == 0 && ctx.Err() == nil {
			// Refused again: the Fitter says why (nil keeps the provider's error).
			if ferr := t.fitter.Fit(ctx, req, err); ferr != nil {
				return resp, ferr
			}
		}
	}
	if err == nil {
		t.fitter.Sent(req, resp.Usage)
	}
	return resp, err
}

// stream makes one model call, failing it if the model goes silent for IdleTimeout.
func (t *turn) stream(ctx context.Context, prov llm.Provider, req llm.Request) (llm.Response, error) {
	resp, err := t.streamTo(ctx, prov, req, func(d llm.Delta) {
		t.deltas++
		t.onDelta(d)
	})
	if err == nil {
		t.endThinking()
	}
	return resp, err
}

// streamTo makes one model call, giving its deltas to onDelta, failing it if the
// model goes silent for IdleTimeout.
func (t *turn) streamTo(ctx context.Context, prov llm.Provider, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	idle := t.a.opts.IdleTimeout
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	silent := &llm.Error{Kind: llm.KindStream, Provider: prov.Name(),
		Message: fmt.Sprintf("the model sent nothing for %s", idle)}
	timer := time.AfterFunc(idle, func() { cancel(silent) })
	defer timer.Stop()
	resp, err := prov.Stream(ctx, req, func(d llm.Delta) {
		timer.Reset(idle)
		onDelta(d)
	})
	if err != nil && context.Cause(ctx) == silent {
		return resp, silent
	}
	return resp, err
}

func (t *turn) result(r Result) Result {
	r.FullText = t.reply.FullText()
	r.History = t.reply.History()
	r.Segments = t.reply.Segments()
	r.Usage = t.usage
	return r
}

func (t *turn) onDelta(d llm.Delta) {
	switch d.Kind {
	case llm.DeltaText:
		if d.Text == "" {
			return
		}
		t.endThinking()
		t.publish(Event{Type: EventTextDelta, Data: TextDelta{Text: d.Text}})
	case llm.DeltaThinking:
		if d.Text != "" {
			t.thinking = true
			t.publish(Event{Type: EventThinking, Data: Thinking{Text: d.Text}})
		}
	case llm.DeltaToolCall:
		// Calls run once the model's step is complete, in order (runAction).
		t.endThinking()
	}
}

// endThinking closes the step's reasoning, once, when something else begins.
func (t *turn) endThinking() {
	if t.thinking {
		t.thinking = false
		t.publish(Event{Type: EventThinking, Data: Thinking{Complete: true}})
	}
}

// runAction runs one requested call and returns the tool message answering it.
func (t *turn) runAction(ctx context.Context, tc llm.ToolCall, start bool) llm.Message {
	args := tc.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	id := tc.Key()
	if start {
		start := ToolStart{CallID: id, Name: tc.Name, Arguments: args, Step: t.step}
		if tc.ID != id {
			start.ModelID = tc.ID
		}
		t.publish(Event{Type: EventToolStart, Data: start})
	}
	result, err := t.invoke(ctx, id, tc.Name, args)
	end := ToolEnd{CallID: id, Name: tc.Name, Result: result}
	msg := llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Text: result}
	if err != nil {
		end.Result, end.Error = "", err.Error()
		msg.Text, msg.IsError = "Error: "+err.Error(), true
	}
	t.publish(Event{Type: EventToolEnd, Data: end})
	return msg
}

// invoke runs the handler, turning bad arguments, unknown names and panics into errors
// the model can read.
func (t *turn) invoke(ctx context.Context, id, name string, args json.RawMessage) (result string, err error) {
	act, ok := t.a.opts.Actions.Get(name)
	if !ok {
		return "", fmt.Errorf("there is no action named %q", name)
	}
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return "", fmt.Errorf("the arguments of %s must be a JSON object", name)
	}
	defer func() {
		if p := recover(); p != nil {
			t.a.opts.Logger.Error("action panicked", "action", name, "panic", p)
			result, err = "", fmt.Errorf("action %s failed unexpectedly", name)
		}
	}()
	cb := &callbackGate{t: t, id: id, name: name}
	defer cb.close()
	return act.Handler(ctx, Call{ID: id, Args: args, Callback: cb.call, Report: cb.report, ConversationID: t.conv, RunID: t.run,
		CustomFunc: cb.custom, PatchFunc: cb.patch})
}

// callbackGate lets a handler call back from any goroutine while it runs; calls after
// the handler returned are dropped, since the turn has moved on.
type callbackGate struct {
	mu     sync.Mutex
	t      *turn
	id     string
	name   string
	closed bool
}

func (g *callbackGate) call(text string, merge Merge) {
	if merge != MergeAppend {
		merge = MergeReplace
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		g.t.a.opts.Logger.Warn("action called back after it returned", "call", g.id)
		return
	}
	g.t.publish(Event{Type: EventCallback, Data: Callback{CallID: g.id, Text: text, Merge: merge}})
}

// report publishes a status change, a pause or a resume of the call, filling in
// what the handler cannot know (the call, the step); other events are refused.
func (g *callbackGate) report(ev Event) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		g.t.a.opts.Logger.Warn("action reported after it returned", "call", g.id)
		return
	}
	switch d := ev.Data.(type) {
	case ToolStatus:
		d.CallID, d.Name = g.id, g.name
		ev.Data = d
	case RunPaused:
		d.PendingToolCallID, d.PendingToolName = g.id, g.name
		d.Step, d.Pending, d.StepNo = g.t.stepMsg, g.t.pending, g.t.step
		ev.Data = d
	case RunResumed:
	default:
		g.t.a.opts.Logger.Warn("action reported an event it may not", "call", g.id, "type", ev.Type)
		return
	}
	g.t.publish(ev)
}

// custom publishes an action's custom event; one too big or not JSON is dropped.
func (g *callbackGate) custom(name string, data any) {
	raw, err := json.Marshal(data)
	if err == nil && len(raw) > MaxCustom {
		err = fmt.Errorf("%d bytes, over the %d allowed", len(raw), MaxCustom)
	}
	if err == nil && name == "" {
		err = errors.New("no event name")
	}
	if err != nil {
		g.t.a.opts.Logger.Warn("action's custom event dropped", "call", g.id, "event", name, "err", err)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		g.t.a.opts.Logger.Warn("action sent an event after it returned", "call", g.id)
		return
	}
	g.t.publish(Event{Type: EventCustom, Data: Custom{CallID: g.id, Name: name, Data: raw}})
}

// patch applies an action's operations to the run's state and publishes them.
func (g *callbackGate) patch(ops ...jsonpatch.Op) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errors.New("the action has returned")
	}
	if err := g.t.state.apply(ops); err != nil {
		return err
	}
	g.t.publish(Event{Type: EventStatePatch, Data: StatePatch{CallID: g.id, Patches: ops}})
	return nil
}

func (g *callbackGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// newCallID is Wisp's id of a call the model asked for: random, so it never names
// another call of any step, run or conversation, whatever ids the provider sends.
func newCallID() string { return "call_" + strings.ReplaceAll(ids.New(), "-", "") }
