package app

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// download GETs path and returns the status, the headers and the body.
func (c *chatApp) download(path string) (int, http.Header, []byte) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.URL()+path, nil)
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode, resp.Header, body
}

// upload POSTs body to path as JSON (length unknown when chunked) and decodes the answer.
func (c *chatApp) upload(path string, body io.Reader, chunked bool, out any) int {
	c.t.Helper()
	if chunked {
		body = io.MultiReader(body) // hides the length: sent chunked
	}
	req, _ := http.NewRequest("POST", c.URL()+path, body)
	req.Header.Set("Content-Type", "application/json")
	return c.roundTrip(req, out)
}

type importAnswer struct {
	Imported, Skipped int
	Conversations     []string
	Failed            []struct{ ID, Title, Error string }
	Error             string
}

// exportedAtLine is the one line two exports of the same history differ in.
var exportedAtLine = regexp.MustCompile(`"exportedAt": "[^"]*"`)

func TestExportImportThroughTheAPI(t *testing.T) {
	src := startChat(t, t.TempDir())
	conv := src.newConversation()
	if code := src.call("PATCH", "/api/conversations/"+conv, map[string]any{"title": "Café plans"}, nil); code != 200 {
		t.Fatalf("rename: %d", code)
	}
	var sent struct{ Text string }
	if code := src.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": "hello there"}, &sent); code != 200 {
		t.Fatalf("send: %d", code)
	}

	code, h, data := src.download("/api/conversations/" + conv + "/export?format=json")
	if code != 200 || h.Get("Content-Type") != "application/json; charset=utf-8" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("export: %d %v\n%s", code, h, data)
	}
	disposition, params, err := mime.ParseMediaType(h.Get("Content-Disposition"))
	if err != nil || disposition != "attachment" || !regexp.MustCompile(`^wisp-caf-plans-\d{8}-\d{6}\.json$`).MatchString(params["filename"]) {
		t.Fatalf("Content-Disposition %q: %v", h.Get("Content-Disposition"), err)
	}
	var doc struct {
		Format        string
		Version       int
		Conversations []struct {
			ID, Title string
			Messages  []struct{ Role, Text string }
			Runs      []struct {
				Status string
				Output struct{ FullText string }
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "wisp-export" || doc.Version != 2 || len(doc.Conversations) != 1 {
		t.Fatalf("%s", data)
	}
	got := doc.Conversations[0]
	if got.ID != conv || got.Title != "Café plans" || len(got.Messages) != 2 || got.Messages[1].Text != sent.Text ||
		len(got.Runs) != 1 || got.Runs[0].Status != "ended" || got.Runs[0].Output.FullText != sent.Text {
		t.Fatalf("exported %+v", got)
	}

	code, h, md := src.download("/api/conversations/" + conv + "/export?format=md")
	if code != 200 || h.Get("Content-Type") != "text/markdown; charset=utf-8" ||
		!strings.HasPrefix(string(md), "# Café plans\n") || !strings.Contains(string(md), "\nhello there\n") ||
		!strings.Contains(string(md), sent.Text) || !strings.HasSuffix(h.Get("Content-Disposition"), ".md") {
		t.Fatalf("markdown: %d %v\n%s", code, h, md)
	}
	code, _, all := src.download("/api/export")
	if code != 200 || !bytes.Contains(all, []byte(`"id": "`+conv+`"`)) {
		t.Fatalf("export all: %d\n%s", code, all)
	}

	// Into a fresh Wisp, whose open UIs hear of the new conversation.
	dst := startChat(t, t.TempDir())
	ws := dst.dialWS()
	var res importAnswer
	if code := dst.upload("/api/import", bytes.NewReader(all), false, &res); code != 200 || res.Imported != 1 || res.Conversations[0] != conv {
		t.Fatalf("import: %d %+v", code, res)
	}
	frame := ws.waitFor(t, func(m map[string]any) bool {
		c, _ := m["conversation"].(map[string]any)
		return m["type"] == "conversation-updated" && c["id"] == conv
	})
	if frame["conversation"].(map[string]any)["title"] != "Café plans" {
		t.Fatalf("frame %v", frame)
	}
	if m := dst.messages(conv); len(m) != 2 || m[1].Text != sent.Text || m[1].RunID == "" {
		t.Fatalf("imported messages %+v", m)
	}
	_, _, again := dst.download("/api/export")
	if exportedAtLine.ReplaceAllString(string(again), "") != exportedAtLine.ReplaceAllString(string(all), "") {
		t.Fatalf("the re-export differs\n%s\n%s", all, again)
	}
	// Twice: nothing new.
	if code := dst.upload("/api/import?format=wisp", bytes.NewReader(all), false, &res); code != 200 || res.Imported != 0 || res.Skipped != 1 {
		t.Fatalf("import again: %d %+v", code, res)
	}
	// The conversation goes on in the Wisp it came into.
	var more struct{ Text string }
	if code := dst.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": "still there?"}, &more); code != 200 || more.Text == "" {
		t.Fatalf("send after import: %d %+v", code, more)
	}
}

func TestImportChatGPTThroughTheAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	fixture, err := os.Open(filepath.Join("archive", "testdata", "chatgpt", "conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer fixture.Close()
	var res importAnswer
	if code := c.upload("/api/import", fixture, true, &res); code != 200 || res.Imported != 3 {
		t.Fatalf("import: %d %+v", code, res)
	}
	var list struct{ Conversations []struct{ ID, Title string } }
	c.call("GET", "/api/conversations", nil, &list)
	titles := map[string]bool{}
	for _, conv := range list.Conversations {
		titles[conv.Title] = true
	}
	if !titles["Sourdough starter troubleshooting"] || !titles["Re-plot a chart"] || !titles["ChatGPT conversation"] {
		t.Fatalf("conversations %+v", list)
	}
	if m := c.messages(res.Conversations[0]); len(m) != 4 || m[2].Role != "user" || !strings.HasPrefix(m[2].Text, "Once a day with all-purpose") {
		t.Fatalf("messages %+v", m)
	}
	// What came in is searched like the rest of the history.
	var found struct {
		Results []struct{ ConversationID, ConversationTitle string }
	}
	if code := c.call("GET", "/api/search?q=starter+warmer", nil, &found); code != 200 || len(found.Results) == 0 ||
		found.Results[0].ConversationID != res.Conversations[0] || found.Results[0].ConversationTitle != "Sourdough starter troubleshooting" {
		t.Fatalf("search: %d %+v", code, found)
	}
}

func TestExportImportErrors(t *testing.T) {
	c := startChat(t, t.TempDir())
	var e struct{ Error string }
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/api/conversations/nope/export", 404, "conversation not found"},
	} {
		req, _ := http.NewRequest(tc.method, c.URL()+tc.path, strings.NewReader("[]"))
		req.Header.Set("Content-Type", "application/json")
		c.authorize(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(e.Error, tc.want) {
			t.Errorf("%s %s: %d %q", tc.method, tc.path, resp.StatusCode, e.Error)
		}
	}
	bad := []struct{ body, want string }{
		{"", "the file is empty"},
		{"{not json", "not valid JSON"},
		{`{"format":"wisp-export","version":9,"exportedAt":"2026-11-21T09:00:00Z","conversations":[]}`, "version 9"},
		{`{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:00:00Z","conversations":[{"id":"x"}]}`, "conversations[0].createdAt: is required"},
		{`[{"mapping": []}]`, "mapping must be an object"},
	}
	for _, tc := range bad {
		var res importAnswer
		if code := c.upload("/api/import", strings.NewReader(tc.body), false, &res); code != 400 || !strings.Contains(res.Error, tc.want) {
			t.Errorf("import %q: %d %q", tc.body, code, res.Error)
		}
	}
}

// A conversation with branches (ChatGPT's, with an edited question and a regenerated
// answer) comes in with every branch, shows current_node's, and exports and imports
// into a fresh Wisp byte for byte.
func TestImportATreeThroughTheAPI(t *testing.T) {
	src := startChat(t, t.TempDir())
	fixture, err := os.ReadFile(filepath.Join("archive", "testdata", "chatgpt", "branches.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res importAnswer
	if code := src.upload("/api/import?format=chatgpt", bytes.NewReader(fixture), false, &res); code != 200 || res.Imported != 1 {
		t.Fatalf("import: %d %+v", code, res)
	}
	conv := res.Conversations[0]
	wantShown := []string{"How long should I boil an egg?", "About 7 minutes for a firm yolk, then cool it in cold water.",
		"And for a soft one?", "Five to six minutes from boiling: the white sets and the yolk stays soft."}
	shown := func(c *chatApp) []string {
		var texts []string
		for _, m := range c.messages(conv) {
			texts = append(texts, m.Text)
		}
		return texts
	}
	if got := shown(src); !slices.Equal(got, wantShown) {
		t.Fatalf("branch shown %q", got)
	}
	code, _, first := src.download("/api/conversations/" + conv + "/export?format=json")
	var doc struct {
		Version       int
		Conversations []struct {
			ActiveLeafID string
			Messages     []struct{ ID, ParentID, Text string }
		}
	}
	if err := json.Unmarshal(first, &doc); code != 200 || err != nil || doc.Version != 2 || len(doc.Conversations[0].Messages) != 9 {
		t.Fatalf("export: %d %v\n%s", code, err, first)
	}
	if c := doc.Conversations[0]; c.ActiveLeafID != c.Messages[4].ID || c.Messages[4].ParentID != c.Messages[2].ID ||
		c.Messages[3].ParentID != c.Messages[2].ID || c.Messages[7].ParentID != "" {
		t.Fatalf("exported tree %+v", c)
	}

	dst := startChat(t, t.TempDir())
	if code := dst.upload("/api/import", bytes.NewReader(first), false, &res); code != 200 || res.Imported != 1 || res.Conversations[0] != conv {
		t.Fatalf("import into a fresh Wisp: %d %+v", code, res)
	}
	_, _, again := dst.download("/api/conversations/" + conv + "/export?format=json")
	if exportedAtLine.ReplaceAllString(string(again), "") != exportedAtLine.ReplaceAllString(string(first), "") {
		t.Fatalf("the re-export differs\n%s\n%s", first, again)
	}
	if got := shown(dst); !slices.Equal(got, wantShown) {
		t.Fatalf("branch shown after the round trip %q", got)
	}
	// Markdown has the branch shown only.
	_, _, md := dst.download("/api/conversations/" + conv + "/export?format=md")
	if !strings.Contains(string(md), wantShown[3]) || strings.Contains(string(md), "duck egg") ||
		!strings.Contains(string(md), "the other branches (5 messages) are in the JSON export only") {
		t.Fatalf("markdown:\n%s", md)
	}
}
