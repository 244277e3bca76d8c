package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/fault"
)

func TestExportJSONCarriesEveryRecord(t *testing.T) {
	s, st, _ := newService(t)
	seed(t, st)
	data := exportAll(t, s, JSON)
	doc := decodeDocument(t, data)
	if doc.Format != FormatName || doc.Version != 2 || doc.ExportedAt != "2026-11-21T09:30:00.000Z" {
		t.Fatalf("head %+v", doc)
	}
	if len(doc.Conversations) != 2 || doc.Conversations[0].ID != "c-music" || doc.Conversations[1].ID != "c-fail" {
		t.Fatalf("conversations (oldest first) %+v", doc.Conversations)
	}
	music := doc.Conversations[0]
	if music.Title != "Play something <calm> & quiet" || music.RoomID != "room-1" || string(music.Metadata) != `{"pinned":true}` ||
		music.CreatedAt != "2025-11-21T08:00:00.000Z" || music.UpdatedAt != "2025-11-21T08:01:00.000Z" {
		t.Fatalf("conversation %+v", music)
	}
	if n := len(music.Messages); n != 3 {
		t.Fatalf("%d messages", n)
	}
	// One branch: each message follows the one before, the last is the leaf.
	if parents := parentIDs(music); !reflect.DeepEqual(parents, []string{"", "m1", "m2"}) || deref(music.ActiveLeafID) != "m3" {
		t.Fatalf("parents %q, leaf %v", parents, deref(music.ActiveLeafID))
	}
	if !bytes.Contains(data, []byte(`"activeLeafId": "m3",`)) || !bytes.Contains(data, []byte(`{
          "id": "m1",
          "parentId": null,
          "role": "user",`)) {
		t.Fatalf("a first message's parentId is not written null:\n%s", data)
	}
	reply := music.Messages[1]
	wantReply := Message{ID: "m2", ParentID: ptr("m1"), Role: "assistant", Text: "Now playing: **Song**", Source: "chat", RunID: "run-1",
		Segments:        json.RawMessage(`[{"kind":"text","text":"Sure"},{"kind":"callback","text":"Now playing: **Song**","history":["Looking up…","Now playing: **Song**"]}]`),
		CallbackHistory: []string{"Looking up…", "Now playing: **Song**"}, Metadata: json.RawMessage(`{"status":"ended"}`),
		CreatedAt: "2025-11-21T08:00:03.000Z"}
	if !reflect.DeepEqual(reply, wantReply) {
		t.Fatalf("reply\n got %+v\nwant %+v", reply, wantReply)
	}
	if music.Messages[0].ClientMessageID != "client-1" || music.Messages[2].Source != "reminder" {
		t.Fatalf("messages %+v", music.Messages)
	}
	call := music.DisplayMessages[1]
	if len(music.DisplayMessages) != 3 || call.ContentType != "tool_call" || call.Status != "completed" || call.ToolCallID != "call-1" ||
		call.UpdatedAt != "2025-11-21T08:00:02.500Z" || string(call.Metadata) != `{"ms":40}` {
		t.Fatalf("display messages %+v", music.DisplayMessages)
	}
	wantRun := Run{ID: "run-1", UserMessageID: "m1", Status: "ended", StartedAt: "2025-11-21T08:00:01.100Z",
		EndedAt: "2025-11-21T08:00:03.000Z",
		Output:  json.RawMessage(`{"fullText":"Now playing: **Song**","usage":{"inputTokens":12,"outputTokens":5},"stopReason":"end_turn","steps":2}`)}
	if len(music.Runs) != 1 || !reflect.DeepEqual(music.Runs[0], wantRun) {
		t.Fatalf("runs %+v", music.Runs)
	}
	failed := doc.Conversations[1].Runs
	if len(failed) != 1 || failed[0].Status != "failed" || failed[0].Error != "the model refused the key" || failed[0].Output != nil {
		t.Fatalf("failed run %+v", failed)
	}
	// Not escaped for HTML: the file is read by people too.
	if !bytes.Contains(data, []byte(`"Play something <calm> & quiet"`)) {
		t.Fatal("title escaped")
	}
}

func TestExportEmptyAndMissing(t *testing.T) {
	s, _, _ := newService(t)
	var doc Document
	data := exportAll(t, s, JSON)
	if err := json.Unmarshal(data, &doc); err != nil || doc.Conversations == nil || len(doc.Conversations) != 0 {
		t.Fatalf("empty export %s: %v", data, err)
	}
	if md := string(exportAll(t, s, Markdown)); !strings.Contains(md, "There are no conversations.") {
		t.Fatalf("empty markdown %q", md)
	}
	_, err := s.ExportConversation(context.Background(), "nope", JSON)
	if !fault.Is(err, fault.NotFound) {
		t.Fatalf("missing conversation: %v", err)
	}
}

func TestExportLeavesOutWhatWasDeletedMeanwhile(t *testing.T) {
	s, st, _ := newService(t)
	seed(t, st)
	ex, err := s.ExportAll(context.Background(), JSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteConversation(context.Background(), "c-fail"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ex.WriteTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	var doc Document
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Conversations) != 1 {
		t.Fatalf("%v %s", err, b.Bytes())
	}
}

func TestExportStopsWithItsContext(t *testing.T) {
	s, st, _ := newService(t)
	seed(t, st)
	ex, err := s.ExportAll(context.Background(), JSON)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ex.WriteTo(ctx, &bytes.Buffer{}); err == nil {
		t.Fatal("a cancelled export finished")
	}
}

func TestFormatsAndFilenames(t *testing.T) {
	for in, want := range map[string]Format{"": JSON, "json": JSON, "JSON": JSON, "md": Markdown, "markdown": Markdown} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFormat("pdf"); !fault.Is(err, fault.Invalid) {
		t.Errorf("pdf: %v", err)
	}
	at := time.Date(2026, 11, 21, 9, 5, 7, 0, time.FixedZone("CET", 3600))
	cases := map[string]string{
		"Play something calm!":         "wisp-play-something-calm-20261121-080507.json",
		"  ../../etc/passwd ":          "wisp-etc-passwd-20261121-080507.json",
		"日本語":                          "wisp-conversation-20261121-080507.json",
		`a"b\c;d` + "\r\nContent-X: y": "wisp-a-b-c-d-content-x-y-20261121-080507.json",
		strings.Repeat("ab ", 40):      "wisp-" + strings.Repeat("ab-", 15) + "ab-20261121-080507.json",
	}
	for title, want := range cases {
		if got := conversationFilename(title, at, JSON); got != want {
			t.Errorf("filename of %q = %q, want %q", title, got, want)
		}
	}
	if got := allFilename(at, Markdown); got != "wisp-conversations-20261121-080507.md" {
		t.Errorf("all: %q", got)
	}
}

func TestMarkdownExport(t *testing.T) {
	s, st, _ := newService(t)
	seed(t, st)
	md := string(exportOne(t, s, "c-music", Markdown))
	for _, want := range []string{
		"# Play something <calm> & quiet\n",
		"Started 2025-11-21 08:00 UTC, last updated 2025-11-21 08:01 UTC, exported 2026-11-21 09:30 UTC. Conversation `c-music`.\n",
		"\n## You · 2025-11-21 08:00 UTC\n\nplay something calm\n",
		"\n## Wisp · 2025-11-21 08:00 UTC\n\nNow playing: **Song**\n\nTool calls:\n\n- `PLAY_MUSIC` — completed: Now playing\n",
		"\n## Wisp (reminder) · 2025-11-21 08:01 UTC\n\nReminder: stretch\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// Messages in order.
	if strings.Index(md, "play something calm") > strings.Index(md, "Reminder: stretch") {
		t.Error("messages out of order")
	}
	failed := string(exportOne(t, s, "c-fail", Markdown))
	if !strings.Contains(failed, "*(no text)*\n\n*The reply failed: the model refused the key*\n") {
		t.Errorf("failed reply:\n%s", failed)
	}
	all := string(exportAll(t, s, Markdown))
	if !strings.HasPrefix(all, "# Wisp conversations\n\nExported 2026-11-21 09:30 UTC.\n\n---\n\n## Play something") ||
		!strings.Contains(all, "\n---\n\n## Broken key\n") || !strings.Contains(all, "\n### You · ") {
		t.Errorf("all:\n%s", all)
	}
}

func TestMarkdownNamesTheAgent(t *testing.T) {
	st := openStore(t)
	seed(t, st)
	s := New(Options{Store: st, Events: &frames{}, Now: func() time.Time { return exportTime }})
	if md := string(exportOne(t, s, "c-music", Markdown)); !strings.Contains(md, "## Assistant · ") {
		t.Errorf("default name:\n%s", md)
	}
}
