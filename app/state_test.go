package app

import (
	"encoding/json"
	"strings"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"

	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// applyPatches applies the patches of state_patch frames (or chunks) in order to {}
// with another JSON Patch library, as a client of the stream would.
func applyPatches(t *testing.T, frames []frame) []byte {
	t.Helper()
	doc := []byte(`{}`)
	for _, f := range frames {
		if f.typ() != "state_patch" {
			continue
		}
		raw, _ := json.Marshal(f.Data["patches"])
		p, err := evanphx.DecodePatch(raw)
		if err != nil {
			t.Fatalf("patch %s: %v", raw, err)
		}
		if doc, err = p.Apply(doc); err != nil {
			t.Fatalf("apply %s: %v", raw, err)
		}
	}
	return doc
}

// runState reads GET /api/runs/{id}/state.
func (s *shellApp) runState(runID string) (state []byte, seq int64) {
	s.t.Helper()
	var out struct {
		RunID string          `json:"runId"`
		Seq   int64           `json:"seq"`
		State json.RawMessage `json:"state"`
	}
	if code := s.call("GET", "/api/runs/"+runID+"/state", nil, &out); code != 200 || out.RunID != runID {
		s.t.Fatalf("run state: %d %+v", code, out)
	}
	return out.State, out.Seq
}

func lastOfType(frames []frame, typ string) frame {
	var last frame
	for _, f := range frames {
		if f.typ() == typ {
			last = f
		}
	}
	return last
}

// TestRunStateFollowsPatches: the emote and shell actions publish custom events and
// patch the run's state; both reach the chat stream (delta dialect) and the chunk
// stream under their own types, and applying the patches with a JSON Patch library
// gives the state read back, while the run waits and after it ended.
func TestRunStateFollowsPatches(t *testing.T) {
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	fake.Script(
		llmtest.Turn{Text: []string{"Hi!"}, ToolCalls: []llm.ToolCall{llmtest.Call("call_em", "PLAY_EMOTE", map[string]string{"emoteId": "wave"})}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_sh", "RUN_SHELL",
			map[string]string{"command": "printf 'first\\nlast line\\n'; exit 3", "reason": "test"})}},
		llmtest.Turn{Text: []string{"Done."}},
	)
	a := startShell(t, t.TempDir(), fake)
	st := a.streamQuery(a.conversation(), "wave, then run it", "dialect=delta")
	runID := st.resp.Header.Get("X-Wisp-Run-Id")
	var frames []frame
	for len(frames) == 0 || frames[len(frames)-1].typ() != "run_paused" {
		f, ok := st.next(t)
		if !ok {
			t.Fatal("the stream ended before the pause")
		}
		frames = append(frames, f)
	}

	// Paused: the emote's patch is the state so far.
	state, seq := a.runState(runID)
	if !evanphx.Equal(state, []byte(`{"avatar":{"emote":"wave","name":"Wave"}}`)) || seq != lastOfType(frames, "state_patch").ID {
		t.Fatalf("state while paused: %s at %d", state, seq)
	}
	emote := lastOfType(frames, "custom")
	if emote.str("eventName") != "emote" || emote.str("callId") != startOf(frames, "PLAY_EMOTE").str("callId") || emote.Data["data"].(map[string]any)["emoteId"] != "wave" {
		t.Fatalf("custom frame %s", emote.Raw)
	}

	approval := frames[len(frames)-1].str("approvalId")
	if code, out := a.do("POST", "/api/approvals/"+approval, map[string]any{"decision": "approve"}); code != 200 {
		t.Fatalf("approve: %d %v", code, out)
	}
	frames = append(frames, st.all(t)...)
	if last := frames[len(frames)-1]; last.typ() != "done" {
		t.Fatalf("last frame %s", last.Raw)
	}

	state, seq = a.runState(runID)
	if got := applyPatches(t, frames); !evanphx.Equal(got, state) {
		t.Fatalf("patches applied: %s\nstate read back: %s", got, state)
	}
	if seq != lastOfType(frames, "state_patch").ID {
		t.Fatalf("state as of %d, the last patch is %d", seq, lastOfType(frames, "state_patch").ID)
	}
	var got struct {
		Avatar struct{ Emote string }
		Shell  struct {
			CallID, Command, Status, LastLine, TerminalRunID string
			ExitCode                                         *int
		}
	}
	if err := json.Unmarshal(state, &got); err != nil {
		t.Fatal(err)
	}
	sh := got.Shell
	if got.Avatar.Emote != "wave" || sh.CallID != startOf(frames, "RUN_SHELL").str("callId") || sh.Status != "exited" || sh.ExitCode == nil || *sh.ExitCode != 3 ||
		sh.LastLine != "last line" || !strings.HasPrefix(sh.Command, "printf") || sh.TerminalRunID == "" {
		t.Fatalf("state %s", state)
	}

	// The chunk stream carries the same patches as state_patch chunks and the emote
	// as a custom chunk.
	chunks := a.chunks(runID, 0).all(t)
	if got := applyPatches(t, chunks); !evanphx.Equal(got, state) {
		t.Fatalf("chunk patches applied: %s, state %s", got, state)
	}
	found := false
	for _, c := range chunks {
		if c.typ() == "custom" && c.str("eventName") == "emote" {
			found = c.Data["data"].(map[string]any)["emoteId"] == "wave"
		}
	}
	if !found {
		t.Fatal("no emote custom chunk")
	}
	if code := a.call("GET", "/api/runs/nope/state", nil, nil); code != 404 {
		t.Fatalf("unknown run: %d", code)
	}
}

// startOf is the tool_start frame of the action named.
func startOf(frames []frame, name string) frame {
	for _, f := range frames {
		if f.typ() == "tool_start" && f.str("name") == name {
			return f
		}
	}
	return frame{}
}
