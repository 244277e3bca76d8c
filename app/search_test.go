package app

import (
	"net/url"
	"strings"
	"testing"
)

type searchAnswer struct {
	Results []struct {
		ConversationID, ConversationTitle, MessageID, Role, Snippet string
		CreatedAt                                                   int64
		Highlights                                                  []struct{ Start, End int }
	}
	NextCursor string
	Error      string
}

func (c *chatApp) search(query string) (int, searchAnswer) {
	c.t.Helper()
	var out searchAnswer
	code := c.call("GET", "/api/search?"+query, nil, &out)
	return code, out
}

// Messages sent through chat are found with GET /api/search, the user's and the
// reply (the fake model echoes), with their conversation, and page by cursor.
func TestSearchAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	first := c.newConversation()
	second := c.newConversation()
	for conv, texts := range map[string][]string{
		first:  {"plan the lighthouse trip", "what about the ferry"},
		second: {"the lighthouse keeper's logbook", "unrelated chatter"},
	} {
		for _, text := range texts {
			var sent struct{ Text string }
			if code := c.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": text}, &sent); code != 200 {
				t.Fatalf("send %q: %d", text, code)
			}
		}
	}
	code, res := c.search("q=" + url.QueryEscape("lightho"))
	if code != 200 || len(res.Results) != 4 || res.NextCursor != "" {
		t.Fatalf("lightho: %d %+v", code, res)
	}
	roles, convs := map[string]int{}, map[string]int{}
	for _, r := range res.Results {
		roles[r.Role]++
		convs[r.ConversationID]++
		if r.ConversationTitle == "" || r.MessageID == "" || r.CreatedAt == 0 || len(r.Highlights) != 1 {
			t.Errorf("result %+v", r)
			continue
		}
		h := r.Highlights[0]
		if got := r.Snippet[h.Start:h.End]; got != "lighthouse" { // ASCII: UTF-16 and byte indices agree
			t.Errorf("highlight %q in %q", got, r.Snippet)
		}
	}
	if roles["user"] != 2 || roles["assistant"] != 2 || convs[first] != 2 || convs[second] != 2 {
		t.Fatalf("roles %v, conversations %v", roles, convs)
	}
	code, page := c.search("q=lighthouse&limit=3")
	if code != 200 || len(page.Results) != 3 || page.NextCursor == "" {
		t.Fatalf("page 1: %d %+v", code, page)
	}
	code, rest := c.search("q=lighthouse&limit=3&cursor=" + url.QueryEscape(page.NextCursor))
	if code != 200 || len(rest.Results) != 1 || rest.NextCursor != "" {
		t.Fatalf("page 2: %d %+v", code, rest)
	}
	seen := map[string]bool{}
	for _, r := range append(page.Results, rest.Results...) {
		if seen[r.MessageID] {
			t.Fatalf("%s came twice across the pages", r.MessageID)
		}
		seen[r.MessageID] = true
	}
}

func TestSearchAPIRefusals(t *testing.T) {
	c := startChat(t, t.TempDir())
	tests := []struct{ query, want string }{
		{"", "q is required"},
		{"q=%20%20", "q is required"},
		{"q=a&cursor=not-a-cursor", "cursor"},
		{"q=" + strings.Repeat("x", 600), "longer than"},
	}
	for _, tt := range tests {
		code, res := c.search(tt.query)
		if code != 400 || !strings.Contains(res.Error, tt.want) {
			t.Errorf("GET /api/search?%.40s: %d %q, want 400 saying %q", tt.query, code, res.Error, tt.want)
		}
	}
}

// Whatever is typed into the search box is an answer, never a server error.
func TestSearchAPIHostileQueries(t *testing.T) {
	c := startChat(t, t.TempDir())
	conv := c.newConversation()
	if code := c.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": `NEAR "quoted" text:col -minus`}, nil); code != 200 {
		t.Fatalf("send: %d", code)
	}
	for _, q := range []string{`"`, `"quoted`, `NEAR(a b)`, `text:col`, `-minus`, `*`, `a OR b`, `^`, "\x00", `'); DROP TABLE messages; --`, "🔥", `{text}:`} {
		code, res := c.search("q=" + url.QueryEscape(q))
		if code != 200 || res.Results == nil {
			t.Errorf("q=%q: %d %+v", q, code, res)
		}
	}
}
