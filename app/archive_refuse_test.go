package app

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// refusedImport uploads body to POST /api/import and expects a 400 whose JSON error
// has want in it, short, and nothing saved: the list of conversations is the same.
func (c *chatApp) refusedImport(body, want string) string {
	c.t.Helper()
	_, _, before := c.download("/api/conversations")
	var res importAnswer
	code := c.upload("/api/import", strings.NewReader(body), false, &res)
	if code != 400 || !strings.Contains(res.Error, want) || res.Imported != 0 {
		c.t.Fatalf("import: %d %+v, want 400 with %q", code, res, want)
	}
	if len(res.Error) > 1024 {
		c.t.Fatalf("a %d-byte error: %.200q…", len(res.Error), res.Error)
	}
	if _, _, after := c.download("/api/conversations"); string(after) != string(before) {
		c.t.Fatalf("a refused import changed the conversations:\n%s\n%s", before, after)
	}
	return res.Error
}

func TestImportRefusesTextThatIsNotUTF8ThroughTheAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.newConversation()
	wisp := func(metadata string) string {
		return `{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[{"id":"c1","title":"T",` +
			`"createdAt":"2026-11-21T09:00:00.000Z","metadata":` + metadata + `,"messages":[],"displayMessages":[],"runs":[]}]}`
	}
	latin1 := wisp(`{"note":"caf` + "\xe9" + `"}`)
	c.refusedImport(latin1, "byte 0xE9 at offset "+strconv.Itoa(strings.IndexByte(latin1, 0xe9))+" is not valid UTF-8")
	c.refusedImport("\xef\xbb\xbf"+wisp(`{"note":"\udc00"}`), "lone surrogate \\udc00 at offset "+strconv.Itoa(3+strings.Index(wisp(`{"note":"\udc00"}`), `\udc00`)))
	c.refusedImport(`[{"title":"`+"\xff"+`","mapping":{}}]`, "byte 0xFF at offset 11")
	// What Wisp answers stays UTF-8.
	if _, _, all := c.download("/api/export"); !utf8.Valid(all) {
		t.Fatalf("the export is not UTF-8: %q", all)
	}
	// The same file as UTF-8 comes in.
	var res importAnswer
	if code := c.upload("/api/import", strings.NewReader(wisp(`{"note":"café \ud83d\ude00"}`)), false, &res); code != 200 || res.Imported != 1 {
		t.Fatalf("import: %d %+v", code, res)
	}
}

func TestImportRefusalsAreShortThroughTheAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.newConversation()
	huge := strings.Repeat("9", 20<<20) // a 20 MB number
	c.refusedImport(`{"format":"wisp-export","version":`+huge+`,"exportedAt":"2026-11-21T09:30:00Z","conversations":[]}`,
		"version 9999")
	c.refusedImport(`[{"id":"g","create_time":`+huge+`,"mapping":{}}]`, "create_time 9999")
	c.refusedImport(`{"format":"`+strings.Repeat("f", 1<<20)+`","version":1}`, `format "fff`)
	var res importAnswer
	if code := c.upload("/api/import?format="+strings.Repeat("w", 64<<10), strings.NewReader("[]"), false, &res); code != 400 || len(res.Error) > 1024 {
		t.Fatalf("a long format name: %d, a %d-byte error", code, len(res.Error))
	}
}

func TestImportRefusesEmptyConversationsThroughTheAPI(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.newConversation()
	c.refusedImport(`[null]`, "conversations[0] is null: a conversation must be an object")
	c.refusedImport(`[{}]`, "conversations[0].mapping is required")
	c.refusedImport(`[{"id":"x","mapping":{"a":{"parent":"b","children":["b"]},"b":{"parent":"a","children":["a"]}}}]`,
		`conversations[0].mapping has a loop: node "a" is its own ancestor`)
	c.refusedImport(`{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00Z","conversations":[null]}`,
		"conversations[0] is null")
	// A conversation with nothing to bring in is reported, not saved empty.
	_, _, before := c.download("/api/conversations")
	var res importAnswer
	if code := c.upload("/api/import", strings.NewReader(`[{"id":"e","title":"Only a system prompt","mapping":{"s":{"message":{"author":{"role":"system"},"content":{"content_type":"text","parts":["be brief"]}}}}}]`), false, &res); code != 200 ||
		res.Imported != 0 || len(res.Failed) != 1 || res.Failed[0].Title != "Only a system prompt" || !strings.Contains(res.Failed[0].Error, "nothing to import") {
		t.Fatalf("import: %d %+v", code, res)
	}
	if _, _, after := c.download("/api/conversations"); string(after) != string(before) {
		t.Fatalf("an empty conversation was saved:\n%s", after)
	}
}
