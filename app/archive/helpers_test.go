package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// frames records what the service publishes.
type frames struct {
	mu   sync.Mutex
	list []wire.Frame
}

func (f *frames) Publish(fr wire.Frame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.list = append(f.list, fr)
}

func (f *frames) updated() []wire.Conversation {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []wire.Conversation
	for _, fr := range f.list {
		if u, ok := fr.(wire.ConversationUpdated); ok {
			out = append(out, u.Conversation)
		}
	}
	return out
}

// exportTime is when the tests' exports are made.
var exportTime = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newService(t testing.TB) (*Service, *store.Store, *frames) {
	t.Helper()
	st := openStore(t)
	f := &frames{}
	return New(Options{Store: st, Events: f, Now: func() time.Time { return exportTime },
		AgentName: func() string { return "Wisp" }}), st, f
}

func ms(v int64) time.Time { return time.UnixMilli(v) }

// t0 is when the seeded history starts (2025-11-21 08:00 UTC).
const t0 = int64(1763712000000)

// seed fills a store with two conversations that use every field the export carries:
// a reply with segments, callback history and metadata, tool calls with statuses, a
// run with an output, a failed run, a proactive message.
func seed(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	add := func(m store.Message) {
		t.Helper()
		_, err := st.AddMessage(ctx, m)
		must(err)
	}
	must(st.CreateConversation(ctx, store.Conversation{ID: "c-music", Title: "Play something <calm> & quiet", RoomID: "room-1",
		Metadata: json.RawMessage(`{"pinned": true}`), CreatedAt: ms(t0)}))
	add(store.Message{ID: "m1", ConversationID: "c-music", Role: "user", Text: "play something calm",
		ClientMessageID: "client-1", CreatedAt: ms(t0 + 1000)})
	must(st.CreateRun(ctx, store.Run{ID: "run-1", ConversationID: "c-music", UserMessageID: "m1", StartedAt: ms(t0 + 1100)}))
	must(st.AppendRunEvents(ctx, []store.RunEvent{
		{RunID: "run-1", Seq: 1, Type: "text_delta", Data: json.RawMessage(`{"text":"Sure"}`), Time: ms(t0 + 1200)},
		{RunID: "run-1", Seq: 2, Type: "output", Data: json.RawMessage(`{"fullText":"Now playing: **Song**","usage":{"inputTokens":12,"outputTokens":5},"stopReason":"end_turn","steps":2}`), Time: ms(t0 + 3000)},
	}))
	for _, d := range []store.DisplayMessage{
		{ID: "d1", ConversationID: "c-music", RunID: "run-1", MessageType: "user", ContentType: "text",
			Content: json.RawMessage(`{"text":"play something calm"}`), CreatedAt: ms(t0 + 1100)},
		{ID: "d2", ConversationID: "c-music", RunID: "run-1", MessageType: "assistant", ContentType: "tool_call",
			Content: json.RawMessage(`{"callId":"call-1","name":"PLAY_MUSIC","arguments":{"q":"calm"},"displayText":"Now playing"}`),
			Status:  "completed", ToolCallID: "call-1", Metadata: json.RawMessage(`{"ms":40}`), CreatedAt: ms(t0 + 1500), UpdatedAt: ms(t0 + 2500)},
		{ID: "d3", ConversationID: "c-music", RunID: "run-1", MessageType: "tool", ContentType: "tool_result",
			Content: json.RawMessage(`{"callId":"call-1","name":"PLAY_MUSIC","result":"ok","error":""}`), ToolCallID: "call-1", CreatedAt: ms(t0 + 2500)},
	} {
		_, err := st.SaveDisplayMessage(ctx, d)
		must(err)
	}
	must(st.EndRun(ctx, "run-1", store.RunEnded, "", ms(t0+3000), &store.Message{ID: "m2", Text: "Now playing: **Song**",
		Source: "chat", Segments: json.RawMessage(`[{"kind":"text","text":"Sure"},{"kind":"callback","text":"Now playing: **Song**","history":["Looking up…","Now playing: **Song**"]}]`),
		CallbackHistory: []string{"Looking up…", "Now playing: **Song**"}, Metadata: json.RawMessage(`{"status":"ended"}`)}))
	add(store.Message{ID: "m3", ConversationID: "c-music", Role: "assistant", Text: "Reminder: stretch",
		Source: "reminder", Metadata: json.RawMessage(`{"reminderId":"r1","late":true}`), CreatedAt: ms(t0 + 60000)})

	must(st.CreateConversation(ctx, store.Conversation{ID: "c-fail", Title: "Broken key", RoomID: "room-2", CreatedAt: ms(t0 + 100)}))
	add(store.Message{ID: "m4", ConversationID: "c-fail", Role: "user", Text: "hello", CreatedAt: ms(t0 + 5000)})
	must(st.CreateRun(ctx, store.Run{ID: "run-2", ConversationID: "c-fail", UserMessageID: "m4", StartedAt: ms(t0 + 5100)}))
	_, err := st.SaveDisplayMessage(ctx, store.DisplayMessage{ID: "d4", ConversationID: "c-fail", RunID: "run-2", MessageType: "system",
		ContentType: "error", Content: json.RawMessage(`{"text":"the model refused the key"}`), CreatedAt: ms(t0 + 5200)})
	must(err)
	must(st.EndRun(ctx, "run-2", store.RunFailed, "the model refused the key", ms(t0+5200), &store.Message{ID: "m5",
		Text: "", Source: "chat", Metadata: json.RawMessage(`{"status":"failed","error":"the model refused the key"}`)}))
}

// exportAll writes the export of every conversation.
func exportAll(t *testing.T, s *Service, f Format) []byte {
	t.Helper()
	ex, err := s.ExportAll(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ex.WriteTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func exportOne(t *testing.T, s *Service, id string, f Format) []byte {
	t.Helper()
	ex, err := s.ExportConversation(context.Background(), id, f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ex.WriteTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func mustImport(t *testing.T, s *Service, data []byte, src Source) wire.ImportResult {
	t.Helper()
	res, err := s.Import(context.Background(), data, src)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// decodeDocument reads an export with its JSON values compacted, as Go writes them.
func decodeDocument(t *testing.T, data []byte) Document {
	t.Helper()
	var doc Document
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	for i := range doc.Conversations {
		c := &doc.Conversations[i]
		c.Metadata = compact(c.Metadata)
		for j := range c.Messages {
			m := &c.Messages[j]
			m.Segments, m.Metadata = compact(m.Segments), compact(m.Metadata)
		}
		for j := range c.DisplayMessages {
			d := &c.DisplayMessages[j]
			d.Content, d.Metadata = compact(d.Content), compact(d.Metadata)
		}
		for j := range c.Runs {
			c.Runs[j].Output = compact(c.Runs[j].Output)
		}
	}
	return doc
}

// ptr is a pointer to s, for a file's optional ids.
func ptr(s string) *string { return &s }

// deref is what p points to, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// parentIDs are the parentId of each message of an exported conversation ("" for null).
func parentIDs(c Conversation) []string {
	out := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = deref(m.ParentID)
	}
	return out
}
