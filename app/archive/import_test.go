package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestRoundTripIntoAFreshDatabase(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	first := exportAll(t, src, JSON)

	dst, dstStore, published := newService(t)
	res := mustImport(t, dst, first, Detect)
	want := wire.ImportResult{Imported: 2, Conversations: []string{"c-music", "c-fail"}, Failed: []wire.ImportFailure{}}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("import %+v", res)
	}
	if again := exportAll(t, dst, JSON); !bytes.Equal(again, first) {
		t.Fatalf("the re-export differs\nfirst:\n%s\nagain:\n%s", first, again)
	}
	if md, again := exportAll(t, src, Markdown), exportAll(t, dst, Markdown); !bytes.Equal(md, again) {
		t.Fatalf("the Markdown differs\n%s\n%s", md, again)
	}
	// Every open UI learns of the new conversations.
	got := published.updated()
	if len(got) != 2 || got[0].ID != "c-music" || got[0].Title != "Play something <calm> & quiet" ||
		got[0].UpdatedAt != "2025-11-21T08:01:00.000Z" || got[1].ID != "c-fail" {
		t.Fatalf("frames %+v", got)
	}
	// The imported runs are over, with their output where the chat reads a finished run.
	run, err := dstStore.Run(context.Background(), "run-1")
	if err != nil || run.Status != store.RunEnded || !run.Compacted {
		t.Fatalf("run %+v, %v", run, err)
	}
	if live, _ := dstStore.ActiveRuns(context.Background()); len(live) != 0 {
		t.Fatalf("live runs %+v", live)
	}
}

func TestImportTwiceMakesNoDuplicates(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	data := exportAll(t, src, JSON)
	dst, dstStore, published := newService(t)
	mustImport(t, dst, data, Wisp)
	res := mustImport(t, dst, data, Wisp)
	want := wire.ImportResult{Skipped: 2, Conversations: []string{}, Failed: []wire.ImportFailure{}}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("second import %+v", res)
	}
	if n, _ := dstStore.MessageCount(context.Background(), "c-music"); n != 3 {
		t.Fatalf("%d messages", n)
	}
	if len(published.updated()) != 2 {
		t.Fatalf("frames %+v", published.updated())
	}
	// Into the database it came from: everything is there already.
	res = mustImport(t, src, data, Detect)
	if res.Skipped != 2 || res.Imported != 0 {
		t.Fatalf("import into the source %+v", res)
	}
}

func TestImportedConversationIsNotMerged(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	data := exportOne(t, src, "c-music", JSON)
	// Wisp goes on in the source; the file is older. Importing it changes nothing.
	if _, err := st.AddMessage(context.Background(), store.Message{ID: "m9", ConversationID: "c-music", Role: "user",
		Text: "later", CreatedAt: ms(t0 + 90000)}); err != nil {
		t.Fatal(err)
	}
	res := mustImport(t, src, data, Wisp)
	if res.Skipped != 1 {
		t.Fatalf("%+v", res)
	}
	msgs, _ := st.AllMessages(context.Background(), "c-music")
	if len(msgs) != 4 || msgs[3].ID != "m9" {
		t.Fatalf("messages %+v", msgs)
	}
}

func TestImportReportsAConversationWhoseRecordsClash(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	doc := decodeDocument(t, exportOne(t, src, "c-music", JSON))
	doc.Conversations[0].ID = "c-copy" // the same messages under another conversation
	data, _ := json.Marshal(doc)
	res := mustImport(t, src, data, Wisp)
	if res.Imported != 0 || len(res.Failed) != 1 || res.Failed[0].ID != "c-copy" || !strings.Contains(res.Failed[0].Error, "already uses") {
		t.Fatalf("%+v", res)
	}
	if _, err := st.Conversation(context.Background(), "c-copy"); err == nil {
		t.Fatal("half of the conversation was saved")
	}
}

func TestImportEndsLiveRuns(t *testing.T) {
	ctx := context.Background()
	src, st, _ := newService(t)
	seed(t, st)
	if err := st.CreateRun(ctx, store.Run{ID: "run-live", ConversationID: "c-fail", StartedAt: ms(t0 + 7000)}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetRunStatus(ctx, "run-live", store.RunPaused); err != nil {
		t.Fatal(err)
	}
	data := exportOne(t, src, "c-fail", JSON)
	if !bytes.Contains(data, []byte(`"status": "paused"`)) {
		t.Fatalf("the paused run is not exported as it is:\n%s", data)
	}
	dst, dstStore, _ := newService(t)
	mustImport(t, dst, data, Wisp)
	run, err := dstStore.Run(ctx, "run-live")
	if err != nil || run.Status != store.RunInterrupted || run.Error != interruptedByExport || !run.EndedAt.Equal(exportTime) {
		t.Fatalf("run %+v, %v", run, err)
	}
}

func TestImportRefusesBadFiles(t *testing.T) {
	good := func(edit func(c map[string]any)) string {
		c := map[string]any{"id": "c1", "title": "T", "createdAt": "2026-11-21T09:00:00.000Z", "updatedAt": "2026-11-21T09:00:00.000Z",
			"messages":        []any{map[string]any{"id": "m1", "role": "user", "text": "hi", "createdAt": "2026-11-21T09:00:00.000Z"}},
			"displayMessages": []any{map[string]any{"id": "d1", "messageType": "user", "contentType": "text", "content": map[string]any{"text": "hi"}, "createdAt": "2026-11-21T09:00:00.000Z", "updatedAt": "2026-11-21T09:00:00.000Z"}},
			"runs":            []any{map[string]any{"id": "r1", "status": "ended", "startedAt": "2026-11-21T09:00:00.000Z", "endedAt": "2026-11-21T09:00:01.000Z"}},
		}
		if edit != nil {
			edit(c)
		}
		data, _ := json.Marshal(map[string]any{"format": FormatName, "version": 1, "exportedAt": "2026-11-21T09:30:00.000Z", "conversations": []any{c}})
		return string(data)
	}
	message := func(key string, v any) func(c map[string]any) {
		return func(c map[string]any) { c["messages"].([]any)[0].(map[string]any)[key] = v }
	}
	display := func(key string, v any) func(c map[string]any) {
		return func(c map[string]any) { c["displayMessages"].([]any)[0].(map[string]any)[key] = v }
	}
	run := func(key string, v any) func(c map[string]any) {
		return func(c map[string]any) { c["runs"].([]any)[0].(map[string]any)[key] = v }
	}
	cases := []struct {
		name, data, want string
		src              Source
	}{
		{"empty", "", "empty", Detect},
		{"spaces", "  \n", "empty", Detect},
		{"not JSON", "{nope", "not valid JSON", Detect},
		{"cut", good(nil)[:40], "not valid JSON", Wisp},
		{"a string", `"hello"`, "neither a Wisp export", Detect},
		{"another object", `{"hello": 1}`, "neither a Wisp export", Detect},
		{"wrong format", `{"format": "other", "version": 1}`, `format "other" is not a Wisp export`, Detect},
		{"format not a string", `{"format": 3}`, "format must be a string", Detect},
		{"no version", `{"format": "wisp-export", "conversations": []}`, "version is required", Detect},
		{"newer version", `{"format": "wisp-export", "version": 3, "exportedAt": "2026-11-21T09:30:00Z", "conversations": []}`, "version 3 is not one this Wisp reads (1 to 2)", Detect},
		{"version 0", `{"format": "wisp-export", "version": 0, "exportedAt": "2026-11-21T09:30:00Z", "conversations": []}`, "version 0 is not one this Wisp reads", Detect},
		{"no conversations", `{"format": "wisp-export", "version": 1, "exportedAt": "2026-11-21T09:30:00Z"}`, "conversations is required", Detect},
		{"conversations not a list", `{"format": "wisp-export", "version": 1, "exportedAt": "2026-11-21T09:30:00Z", "conversations": {}}`, "must be an array", Detect},
		{"no exportedAt", `{"format": "wisp-export", "version": 1, "conversations": []}`, "exportedAt is required", Detect},
		{"array as Wisp", `[]`, "the top level must be an object", Wisp},
		{"no id", good(func(c map[string]any) { delete(c, "id") }), "conversations[0].id: is required", Detect},
		{"bad id", good(func(c map[string]any) { c["id"] = "../x" }), `conversations[0].id: "../x" is not an id`, Detect},
		{"no createdAt", good(func(c map[string]any) { delete(c, "createdAt") }), "conversations[0].createdAt: is required", Detect},
		{"bad time", good(func(c map[string]any) { c["updatedAt"] = "yesterday" }), "conversations[0].updatedAt: \"yesterday\" is not an ISO 8601 time", Detect},
		{"time before 1970", good(func(c map[string]any) { c["createdAt"] = "1969-12-31T23:59:59Z" }), "out of range", Detect},
		{"long title", good(func(c map[string]any) { c["title"] = strings.Repeat("t", 201) }), "conversations[0].title: is longer than 200", Detect},
		{"metadata not an object", good(func(c map[string]any) { c["metadata"] = []int{1} }), "conversations[0].metadata: must be a JSON object", Detect},
		{"message role", good(message("role", "robot")), `conversations[0].messages[0].role: "robot" is not one of assistant, user`, Detect},
		{"message no id", good(message("id", "")), "conversations[0].messages[0].id: is required", Detect},
		{"message text a number", good(message("text", 3)), "text must be a string", Detect},
		{"message segments", good(message("segments", "x")), "segments: must be a JSON array", Detect},
		{"message history", good(message("callbackHistory", []int{1})), "callbackHistory must be a string", Detect},
		{"message twice", good(func(c map[string]any) { c["messages"] = append(c["messages"].([]any), c["messages"].([]any)[0]) }), `the message id "m1" appears twice`, Detect},
		{"display type", good(display("contentType", "video")), `displayMessages[0].contentType: "video" is not one of`, Detect},
		{"display message type", good(display("messageType", "")), `displayMessages[0].messageType: is required`, Detect},
		{"display status", good(display("status", "done")), `displayMessages[0].status: "done" is not one of`, Detect},
		{"display content", good(display("content", nil)), `displayMessages[0].content: is required`, Detect},
		{"run status", good(run("status", "running")), `runs[0].status: "running" is not one of`, Detect},
		{"run start", good(run("startedAt", "")), `runs[0].startedAt: is required`, Detect},
		{"run output", good(run("output", "text")), `runs[0].output: must be a JSON object`, Detect},
		{"long source", good(message("source", strings.Repeat("s", 300))), "source: is longer than 256 bytes", Detect},
		{"chatgpt not a list", `{"mapping": 3}`, "mapping must be an object", Detect},
		{"chatgpt bad item", `[3]`, "conversations[0] is a number: a conversation must be an object", ChatGPT},
		{"chatgpt bad time", `[{"id": "x", "create_time": -5, "mapping": {}}]`, "conversations[0].create_time: -5 is out of range", Detect},
		{"chatgpt huge time", `[{"id": "x", "create_time": 1e300, "mapping": {}}]`, "out of range", Detect},
		{"chatgpt loop", `[{"id": "x", "current_node": "a", "mapping": {"a": {"parent": "b"}, "b": {"parent": "a"}}}]`, `conversations[0].mapping has a loop: node "a" is its own ancestor`, Detect},
		{"chatgpt twice", `[{"id": "x", "mapping": {}}, {"id": "x", "mapping": {}}]`, "appears twice", Detect},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st, published := newService(t)
			_, err := s.Import(context.Background(), []byte(tc.data), tc.src)
			shortRefusal(t, err, tc.want)
			if convs, _ := st.Conversations(context.Background()); len(convs) != 0 || len(published.updated()) != 0 {
				t.Fatalf("a refused file saved %+v", convs)
			}
		})
	}
}

func TestImportSourceNames(t *testing.T) {
	for in, want := range map[string]Source{"": Detect, "auto": Detect, "wisp": Wisp, "ChatGPT": ChatGPT} {
		if got, err := ParseSource(in); err != nil || got != want {
			t.Errorf("ParseSource(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseSource("claude"); !fault.Is(err, fault.Invalid) {
		t.Errorf("claude: %v", err)
	}
}

func TestImportAfterCancelStops(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	data := exportAll(t, src, JSON)
	dst, dstStore, _ := newService(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dst.Import(ctx, data, Wisp); err == nil || fault.Is(err, fault.Invalid) {
		t.Fatalf("cancelled import: %v", err)
	}
	if convs, _ := dstStore.Conversations(context.Background()); len(convs) != 0 {
		t.Fatalf("saved %+v", convs)
	}
}
