package memory

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
)

func TestParseRecall(t *testing.T) {
	cases := []struct {
		args, match string
		limit       int
		err         string
	}{
		{`{"query":"dentist"}`, `"dentist"`, 5, ""},
		{`{"query":"green tea","limit":20}`, `"green" OR "tea"`, 20, ""},
		{`{"query":"x","limit":21}`, "", 0, "limit"},
		{`{"query":"x","limit":-1}`, "", 0, "limit"},
		{`{"query":"x","limit":2.5}`, "", 0, "whole number"},
		{`{"query":"  "}`, "", 0, "required"},
		{`{"query":"?!"}`, "", 0, "no words"},
		{`{"query":"` + strings.Repeat("a ", 300) + `"}`, "", 0, "longer"},
		{`[]`, "", 0, "arguments"},
	}
	for _, tc := range cases {
		match, limit, err := parseRecall(json.RawMessage(tc.args))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || match != tc.match || limit != tc.limit {
			t.Errorf("%s: %q %d %v", tc.args, match, limit, err)
		}
	}
}

func FuzzParseRecall(f *testing.F) {
	for _, s := range []string{`{"query":"dentist","limit":3}`, `{"query":"\"NEAR(x)"}`, `{}`, `{"limit":1e9}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		match, limit, err := parseRecall(json.RawMessage(args))
		if err != nil {
			return
		}
		if match == "" || limit < 1 || limit > RecallMaxLimit {
			t.Fatalf("%q: match %q, limit %d", args, match, limit)
		}
	})
}

// TestRankFavoursRecent: among equally relevant messages the newer wins; a much more
// relevant old one still beats a barely relevant new one.
func TestRankFavoursRecent(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	hits := []store.RecallHit{
		{MessageID: "old", Rank: -2, CreatedAt: now.AddDate(-1, 0, 0)},
		{MessageID: "new", Rank: -2, CreatedAt: now.Add(-time.Hour)},
		{MessageID: "month", Rank: -2, CreatedAt: now.AddDate(0, -1, 0)},
		{MessageID: "strong-old", Rank: -5, CreatedAt: now.AddDate(-2, 0, 0)},
		{MessageID: "weak-new", Rank: -1, CreatedAt: now},
	}
	var got []string
	for _, h := range rank(hits, now, 4) {
		got = append(got, h.MessageID)
	}
	if strings.Join(got, " ") != "strong-old new month old" {
		t.Fatalf("ranked %v", got)
	}
}

func TestFormatRecall(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.Local)
	out := formatRecall([]store.RecallHit{
		{MessageID: "m1", ConversationID: "c1", ConversationTitle: "Trip [to] *Zürich*", Role: "user", CreatedAt: at,
			Snippet: "line one\nline two " + strings.Repeat("é", 600)},
		{MessageID: "m2", ConversationID: "c 2", ConversationTitle: "", Role: "assistant", CreatedAt: at, Snippet: "short"},
	})
	if !strings.Contains(out, `1. [Trip \[to\] \*Zürich\*, 2026-11-20](wisp://message/c1/m1) (the user wrote)`) ||
		!strings.Contains(out, "2. [Untitled, 2026-11-20](wisp://message/c%202/m2) (you wrote)") {
		t.Fatalf("citations:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "   > ") && utf8.RuneCountInString(strings.TrimPrefix(line, "   > ")) > SnippetRunes {
			t.Fatalf("a snippet of %d characters", utf8.RuneCountInString(line))
		}
	}
	if !strings.Contains(out, "> line one line two") {
		t.Fatalf("a snippet on more than one line:\n%s", out)
	}
}

func TestRecallAction(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	if _, err := h.st.AddMessage(ctx, store.Message{ID: "m1", ConversationID: "c", Role: "user", Text: "my dentist is Dr Okafor",
		CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	act := h.svc.RecallAction()
	res, err := act.Handler(ctx, call("r1", `{"query":"dentist"}`))
	if err != nil || !strings.Contains(res, "](wisp://message/c/m1)") {
		t.Fatalf("recall: %q %v", res, err)
	}
	if res, err := act.Handler(ctx, call("r2", `{"query":"plumber"}`)); err != nil || !strings.HasPrefix(res, "Nothing") {
		t.Fatalf("no match: %q %v", res, err)
	}
	if !strings.Contains(act.Prompt, "wisp://message/") {
		t.Fatal("the prompt does not say how to cite")
	}
}
