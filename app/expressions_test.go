package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// setVoice changes the voice settings of a running Wisp.
func (c *chatApp) setVoice(speak bool, baseURL string) {
	c.t.Helper()
	err := c.settings.Change(context.Background(), func(f *config.File) error {
		f.Config.Voice.SpeakReplies, f.Config.Voice.TTS.BaseURL = speak, baseURL
		return nil
	})
	if err != nil {
		c.t.Fatal(err)
	}
}

// speechFrames are the speech frames of a stream, checking each came after the
// text it speaks (in the delta dialect, the tokens; in seed 000's, fullText).
func speechFrames(t *testing.T, frames []frame) []frame {
	t.Helper()
	var out []frame
	text := ""
	for _, f := range frames {
		switch f.typ() {
		case "token":
			if _, full := f.Data["fullText"]; full {
				text = f.str("fullText")
			} else {
				text += f.str("text")
			}
		case "speech":
			out = append(out, f)
			if end := int(f.Data["end"].(float64)); end > len(text) {
				t.Errorf("clause %s came before its text %q", f.Raw, text)
			}
		}
	}
	return out
}

// With speak replies on and speech out set up, the chat stream carries the reply's
// clauses in both dialects, in order, the last with Final; with either off, none.
func TestSpeechFramesOverSSE(t *testing.T) {
	c := startChat(t, t.TempDir())
	turn := llmtest.Turn{Text: []string{"Hello there. ", "Here is **the plan**: ", "see [the docs](https://x.y/z).\n", "Bye!"}}
	want := []string{"Hello there.", "Here is the plan: see the docs.", "Bye!"}
	conv := c.newConversation()
	c.setVoice(true, c.fake.OpenAIURL())
	for _, query := range []string{"", "dialect=delta"} {
		c.fake.Script(turn)
		frames := c.streamQuery(conv, "plan?", query).all(t)
		got := speechFrames(t, frames)
		if len(got) != len(want) {
			t.Fatalf("%q: speech frames %v", query, got)
		}
		for i, f := range got {
			final, _ := f.Data["final"].(bool)
			if f.str("text") != want[i] || int(f.Data["index"].(float64)) != i || f.Data["segment"] != 0.0 || final != (i == len(want)-1) {
				t.Errorf("%q: frame %d %s, want %q", query, i, f.Raw, want[i])
			}
		}
		if last := frames[len(frames)-1]; last.typ() != "done" {
			t.Fatalf("%q: the stream ends with %s", query, last.Raw)
		}
	}
	for _, off := range []struct {
		speak bool
		url   string
	}{{false, c.fake.OpenAIURL()}, {true, ""}} {
		c.setVoice(off.speak, off.url)
		c.fake.Script(turn)
		if got := speechFrames(t, c.streamQuery(conv, "again", "dialect=delta").all(t)); len(got) != 0 {
			t.Fatalf("speak %v, TTS %q: speech frames %v", off.speak, off.url, got)
		}
	}
}

// expressionsUntil reads /ws expression frames until the API's sentinel (durationMs
// 1), which it posts: whatever came before it was published first.
func (c *chatApp) expressionsUntil(w *wsClient) []map[string]any {
	c.t.Helper()
	if code := c.call("POST", "/api/expression", map[string]any{"expression": "neutral", "durationMs": 1}, nil); code != 200 {
		c.t.Fatalf("POST /api/expression: %d", code)
	}
	var seen []map[string]any
	w.waitFor(c.t, func(m map[string]any) bool {
		if m["type"] != "expression" {
			return false
		}
		if m["source"] == "api" && m["durationMs"] == 1.0 {
			return true
		}
		seen = append(seen, m)
		return false
	})
	return seen
}

// The agent shows an expression through SHOW_EXPRESSION; a bad one is an error for
// the model and shows nothing; the reply's tone adds none after the agent's own.
func TestShowExpressionAction(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "SHOW_EXPRESSION", map[string]any{"expression": "smug"})}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_2", "SHOW_EXPRESSION", map[string]any{"expression": "happy", "intensity": 2})}},
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_3", "SHOW_EXPRESSION", map[string]any{"expression": "happy", "intensity": 0.5})}},
		llmtest.Turn{Text: []string{"Congratulations! That is wonderful news 🎉"}},
	)
	w := c.dialWS()
	conv := c.newConversation()
	frames := c.stream(conv, "I passed!").all(t)
	if last := frames[len(frames)-1]; last.typ() != "done" {
		t.Fatalf("last frame %s", last.Raw)
	}
	seen := c.expressionsUntil(w)
	if len(seen) != 1 || seen[0]["expression"] != "happy" || seen[0]["intensity"] != 0.5 || seen[0]["source"] != "agent" {
		t.Fatalf("expression frames %v, want the agent's happy only", seen)
	}
	reqs := c.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests", len(reqs))
	}
	for i, want := range []string{`unknown expression \"smug\"`, "intensity must be above 0 and at most 1", "Your avatar looks happy."} {
		if !strings.Contains(string(reqs[i+1].Body), want) {
			t.Errorf("request %d does not tell the model %q: %s", i+1, want, reqs[i+1].Body)
		}
	}
	var body struct {
		Tools []struct {
			Function struct {
				Name       string
				Parameters struct {
					Properties struct{ Expression struct{ Enum []string } }
				}
			}
		}
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, tool := range body.Tools {
		if tool.Function.Name == "SHOW_EXPRESSION" {
			enum = tool.Function.Parameters.Properties.Expression.Enum
		}
	}
	if strings.Join(enum, ",") != "happy,sad,angry,surprised,relaxed" {
		t.Errorf("SHOW_EXPRESSION enum %v", enum)
	}
}

// A reply's tone shows at its end when the agent showed nothing; a plain reply shows
// nothing.
func TestToneExpression(t *testing.T) {
	c := startChat(t, t.TempDir())
	w := c.dialWS()
	conv := c.newConversation()
	c.fake.Script(llmtest.Turn{Text: []string{"Congratulations! ", "That is wonderful news 🎉"}})
	c.stream(conv, "I passed!").all(t)
	seen := c.expressionsUntil(w)
	if len(seen) != 1 || seen[0]["expression"] != "happy" || seen[0]["source"] != "tone" || seen[0]["durationMs"] != 4000.0 ||
		seen[0]["intensity"].(float64) > 0.6 || seen[0]["intensity"].(float64) <= 0 {
		t.Fatalf("expression frames %v, want the tone's happy", seen)
	}
	c.fake.Script(llmtest.Turn{Text: []string{"The file has three lines."}})
	c.stream(conv, "count").all(t)
	if seen := c.expressionsUntil(w); len(seen) != 0 {
		t.Fatalf("a plain reply showed %v", seen)
	}
}

// POST /api/expression reaches every window.
func TestExpressionAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	w := c.dialWS()
	if code := c.call("POST", "/api/expression", map[string]any{"expression": "surprised", "intensity": 0.7, "durationMs": 2000}, nil); code != 200 {
		t.Fatalf("POST: %d", code)
	}
	f := w.waitFor(t, ofType("expression"))
	if f["expression"] != "surprised" || f["intensity"] != 0.7 || f["durationMs"] != 2000.0 || f["source"] != "api" {
		t.Fatalf("frame %v", f)
	}
	var out map[string]string
	if code := c.call("POST", "/api/expression", map[string]any{"expression": "smug"}, &out); code != 400 || out["error"] != "Unknown expression: smug" {
		t.Fatalf("POST smug: %d %v", code, out)
	}
}
