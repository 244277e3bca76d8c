package runtime

import (
	"context"
	"errors"

	"github.com/wispapp/wisp/runtime/llm"
)

// ResumeInput is a run a pause stopped, to go on with: its conversation before it,
// the user's message and the run's log so far, in order, the pause among it.
type ResumeInput struct {
	History        []llm.Message
	Text           string
	Images         []llm.Image // the new message's, as Input.Images
	ConversationID string
	RunID          string
	Log            []Event
	// Fitter fits the resumed turn's model calls, as Input.Fitter.
	Fitter Fitter
}

// ErrNoPause means a run's log has no pause to resume from.
var ErrNoPause = errors.New("the run did not pause")

// Resume goes on with a turn that paused, as if it had never stopped: the reply is
// folded again from the log, the model's messages are rebuilt from it (the paused
// step's message from the pause itself, with its reasoning as the provider needs it),
// the paused call runs again (its start is not published twice) with the rest of its
// step, and the turn continues from the next step. Events go to emit as in Turn.
func (a *Agent) Resume(ctx context.Context, in ResumeInput, emit Emit) (Result, error) {
	prov, err := a.Provider()
	if err != nil {
		return Result{}, err
	}
	msgs, pause, ok := rebuildMessages(in)
	if !ok {
		return Result{}, ErrNoPause
	}
	t := &turn{a: a, emit: emit, conv: in.ConversationID, run: in.RunID, step: pause.StepNo, stepMsg: pause.Step, fitter: in.Fitter}
	for _, ev := range in.Log {
		Apply(&t.reply, ev)
		t.state.replay(ev)
	}
	res := Result{Steps: pause.StepNo}
	if msgs, err = t.runCalls(ctx, msgs, pause.Pending, false); err != nil {
		return t.result(res), err
	}
	if pause.StepNo >= a.opts.MaxSteps {
		res.StopReason = "max_steps"
		return t.result(res), nil
	}
	return t.loop(ctx, prov, msgs, pause.StepNo+1)
}

// loggedStep is one model call rebuilt from a run log: its message and the answers
// to its calls.
type loggedStep struct {
	no      int
	msg     llm.Message
	results []loggedResult
	ended   bool // a call of it has ended: more text is the next step's
}

// loggedResult is the answer to a call, by Wisp's id of the call.
type loggedResult struct {
	call string
	msg  llm.Message
}

// rebuildMessages turns a paused run's log back into the model's messages up to the
// pause, and returns the last pause. Steps before the paused one come from their
// events (their reasoning is not sent back: providers only need the last step's);
// the paused step is the pause's own record of it, with the answers of the calls
// that ran before the pause.
func rebuildMessages(in ResumeInput) ([]llm.Message, RunPaused, bool) {
	var steps []*loggedStep
	var pause RunPaused
	paused := false
	modelIDs := map[string]string{} // the provider's id of each call, by Wisp's
	cur := func() *loggedStep {
		if len(steps) == 0 {
			return nil
		}
		return steps[len(steps)-1]
	}
	open := func(no int) *loggedStep {
		s := &loggedStep{no: no, msg: llm.Message{Role: llm.RoleAssistant}}
		steps = append(steps, s)
		return s
	}
	for _, ev := range in.Log {
		switch d := ev.Data.(type) {
		case TextDelta:
			s := cur()
			if s == nil || s.ended {
				s = open(len(steps) + 1)
			}
			s.msg.Text += d.Text
		case ToolStart:
			s := cur()
			if s == nil || (d.Step != 0 && s.no != d.Step) {
				no := d.Step
				if no == 0 {
					no = len(steps) + 1
				}
				s = open(no)
			}
			call := llm.ToolCall{ID: d.CallID, Name: d.Name, Arguments: d.Arguments, WispID: d.CallID}
			if d.ModelID != "" {
				call.ID = d.ModelID
			}
			modelIDs[d.CallID] = call.ID
			s.msg.ToolCalls = append(s.msg.ToolCalls, call)
		case ToolEnd:
			if s := cur(); s != nil {
				s.ended = true
				msg := llm.Message{Role: llm.RoleTool, ToolCallID: d.CallID, Text: d.Result}
				if id, ok := modelIDs[d.CallID]; ok {
					msg.ToolCallID = id
				}
				if d.Error != "" {
					msg.Text, msg.IsError = "Error: "+d.Error, true
				}
				s.results = append(s.results, loggedResult{call: d.CallID, msg: msg})
			}
		case RunPaused:
			pause, paused = d, true
		}
	}
	if !paused || len(pause.Pending) == 0 {
		return nil, RunPaused{}, false
	}
	msgs := append(append([]llm.Message(nil), in.History...), llm.Message{Role: llm.RoleUser, Text: in.Text, Images: in.Images})
	pending := map[string]bool{}
	for _, c := range pause.Pending {
		pending[c.Key()] = true
	}
	for _, s := range steps {
		switch {
		case s.no < pause.StepNo:
			msgs = append(msgs, s.msg)
			for _, r := range s.results {
				msgs = append(msgs, r.msg)
			}
		case s.no == pause.StepNo:
			msgs = append(msgs, pause.Step)
			for _, r := range s.results {
				if !pending[r.call] {
					msgs = append(msgs, r.msg)
				}
			}
		}
	}
	return msgs, pause, true
}
