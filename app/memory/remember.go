package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/runtime"
)

// RememberName is the name of the action that proposes a note to remember.
const RememberName = "REMEMBER"

// maxRememberArgs bounds a REMEMBER's arguments before they are read: a note is at
// most approval.MaxMemoRunes characters, 4 bytes each at worst, escaped.
const maxRememberArgs = 6*approval.MaxMemoRunes*4 + 256

// rememberArgs are a REMEMBER's arguments; edited is set when the user saved their
// edit of the proposal.
type rememberArgs struct {
	Text   string `json:"text"`
	edited bool
	asked  bool
}

// RememberAction is REMEMBER {text}: the agent proposes a note about the user, the
// user saves it (approve), edits it (approve with text) or discards it (deny) on its
// card, unless memory.autoSave is on. Nothing is saved without one of those.
func (s *Service) RememberAction(approvals *approval.Service) runtime.Action {
	return approval.Guard(approvals, approval.Guarded[rememberArgs]{Action: runtime.Action{
		Name: RememberName,
		Description: "Propose a short note about the user to keep in your memory across every conversation: a " +
			"preference, a fact they told you, a project of theirs. The user sees the note and saves, edits or " +
			"discards it (unless they let you save without asking). One fact per call, in a sentence; never secrets " +
			"(passwords, keys), never instructions to yourself. Your memory is in your system prompt.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"text":{"type":"string","description":"The note, one fact in a short sentence (at most 2000 characters)"}},` +
			`"required":["text"]}`),
	}, Check: s.checkRemember, Run: s.remember, Edited: func(a rememberArgs, text string) rememberArgs {
		a.Text, a.edited = text, true
		return a
	}})
}

// checkRemember reads a proposal: a note within bounds that is not in the memory
// already and fits in it. The card shows the note as it will be saved.
func (s *Service) checkRemember(ctx context.Context, call runtime.Call) (rememberArgs, approval.Request, error) {
	var a rememberArgs
	if len(call.Args) > maxRememberArgs {
		return a, approval.Request{}, fmt.Errorf("the arguments are %d bytes long, over the %d allowed: a note is at most %d characters",
			len(call.Args), maxRememberArgs, approval.MaxMemoRunes)
	}
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return a, approval.Request{}, errors.New("the arguments must be {text}")
	}
	text, err := approval.CheckMemo(a.Text)
	if err != nil {
		return a, approval.Request{}, err
	}
	a.Text = text
	set := s.settings()
	cur, err := s.latest(ctx, set.Character)
	if err != nil {
		return a, approval.Request{}, err
	}
	if _, err := appended(cur.Text, text, set.MaxBytes); err != nil {
		return a, approval.Request{}, err
	}
	a.asked = !set.AutoSave
	return a, approval.Request{Detail: approval.Memo{Text: text}, Allowed: set.AutoSave}, nil
}

// remember saves what was allowed and tells the model how it went.
func (s *Service) remember(ctx context.Context, call runtime.Call, a rememberArgs) (string, error) {
	if _, err := s.Append(ctx, a.Text); err != nil {
		if errors.Is(err, errDuplicate) {
			call.Callback("Already in memory", runtime.MergeReplace)
			return "It is already in memory: nothing was saved.", nil
		}
		return "", err
	}
	switch {
	case a.edited:
		call.Callback("Saved to memory, as edited", runtime.MergeReplace)
		return "Saved as edited by the user: " + a.Text, nil
	case a.asked:
		call.Callback("Saved to memory", runtime.MergeReplace)
		return "Saved to memory.", nil
	}
	call.Callback("Saved to memory", runtime.MergeReplace)
	return "Saved to memory (the user lets you save notes without asking).", nil
}
