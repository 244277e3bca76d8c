package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/ids"
)

// chatgptFixture is a ChatGPT export written from the format's public description:
// hidden system and profile messages, an edited question and a regenerated answer
// (branches), an image with a question, a tool call with its output, reasoning, an
// empty answer, a conversation without title or "id".
const chatgptFixture = "testdata/chatgpt/conversations.json"

type gotMessage struct {
	Role, Text string
	At         int64 // Unix ms
}

func TestChatGPTFixture(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(chatgptFixture)
	if err != nil {
		t.Fatal(err)
	}
	s, st, published := newService(t)
	res := mustImport(t, s, data, Detect)
	sourdough := ids.FromName("chatgpt/67e2b1f0-1c2d-8000-9a41-3f5c2d7e9b10")
	chart := ids.FromName("chatgpt/67e2b2aa-4b3c-8000-b1d2-7c6e5f4a3b20")
	german := ids.FromName("chatgpt/67e2b3bb-9d8e-8000-a3f4-5e6d7c8b9a30")
	if res.Imported != 3 || res.Skipped != 0 || !reflect.DeepEqual(res.Conversations, []string{sourdough, chart, german}) {
		t.Fatalf("import %+v", res)
	}
	if n := len(published.updated()); n != 3 {
		t.Fatalf("%d conversation-updated frames", n)
	}

	cases := []struct {
		id, title, meta  string
		created, updated int64
		messages         []gotMessage
	}{
		{sourdough, "Sourdough starter troubleshooting",
			`{"chatgptId":"67e2b1f0-1c2d-8000-9a41-3f5c2d7e9b10","importedFrom":"chatgpt","model":"gpt-4o"}`,
			1709654400200, 1709654591000, []gotMessage{
				{"user", "My sourdough starter isn't rising any more. What am I doing wrong?", 1709654400512},
				{"assistant", "A starter that stops rising is usually **hungry, cold or too wet**.\n\n1. Feed it twice a day for a few days.\n2. Keep it at 24–26 °C.\n3. Use a little whole-grain flour.\n\nHow often do you feed it, and with what?", 1709654409250},
				// The branch shown: the edited question, the second answer. The others
				// are kept (TestChatGPTFixtureKeepsEveryBranch).
				{"user", "Once a day with all-purpose flour, and the kitchen is about 18 °C.", 1709654520000},
				{"assistant", "At 18 °C a starter fed once a day runs out of food long before its next meal. Move it somewhere warmer (the oven with only the light on works) and feed it every 12 hours with a 1:1:1 ratio.", 1709654590750},
			}},
		{chart, "Re-plot a chart",
			`{"chatgptId":"67e2b2aa-4b3c-8000-b1d2-7c6e5f4a3b20","importedFrom":"chatgpt","model":"o3"}`,
			1710000059900, 1710000081000, []gotMessage{
				{"user", "📎 chart.png\n\nCan you read the numbers in this chart and plot them again?", 1710000060000},
				// No time of its own: the one before (the user's; the tool's and reasoning are skipped).
				{"assistant", "Here is the chart re-drawn from the numbers I could read: Q1 12, Q2 18, Q3 9, Q4 21. Q4 is the best quarter.", 1710000060000},
			}},
		{german, "ChatGPT conversation",
			`{"chatgptId":"67e2b3bb-9d8e-8000-a3f4-5e6d7c8b9a30","importedFrom":"chatgpt","model":"gpt-4o-mini"}`,
			1712345677000, 1712345685000, []gotMessage{
				{"user", "Wie sagt man „Gemütlichkeit“ auf Englisch?\n\nGibt es ein einzelnes Wort?", 1712345678000},
				{"assistant", "Kein einzelnes Wort trifft es genau: „coziness“ kommt am nächsten, oft ergänzt um „a warm, friendly feeling“.", 1712345684500},
			}},
	}
	for _, tc := range cases {
		c, err := st.Conversation(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if c.Title != tc.title || string(c.Metadata) != tc.meta || c.CreatedAt.UnixMilli() != tc.created || c.UpdatedAt.UnixMilli() != tc.updated {
			t.Errorf("conversation %+v (metadata %s)", c, c.Metadata)
		}
		msgs, err := st.ActivePath(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		var got []gotMessage
		for _, m := range msgs {
			got = append(got, gotMessage{m.Role, m.Text, m.CreatedAt.UnixMilli()})
			if m.Source != SourceChatGPT {
				t.Errorf("message %s source %q", m.ID, m.Source)
			}
		}
		if !reflect.DeepEqual(got, tc.messages) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.title, got, tc.messages)
		}
	}
	// Message ids derive from ChatGPT's node ids.
	msgs, _ := st.ActivePath(ctx, sourdough)
	if msgs[0].ID != ids.FromName("chatgpt/67e2b1f0-1c2d-8000-9a41-3f5c2d7e9b10/aaa11111-2222-4333-8444-555566667701") {
		t.Errorf("message id %s", msgs[0].ID)
	}

	// Twice: nothing new.
	again := mustImport(t, s, data, ChatGPT)
	if again.Imported != 0 || again.Skipped != 3 {
		t.Fatalf("second import %+v", again)
	}
	if n, _ := st.AllMessageCount(ctx, sourdough); n != 7 {
		t.Fatalf("%d messages after the second import", n)
	}
	// What came in exports and imports like anything else.
	exported := exportAll(t, s, JSON)
	fresh, _, _ := newService(t)
	if res := mustImport(t, fresh, exported, Detect); res.Imported != 3 {
		t.Fatalf("re-import %+v", res)
	}
}

func TestChatGPTBranchesWithoutCurrentNode(t *testing.T) {
	// No current_node: the newest leaf's branch. One conversation alone (an object) reads too.
	conv := map[string]any{
		"id": "solo", "title": "  Two\nanswers  ",
		"mapping": map[string]any{
			"root": map[string]any{"children": []string{"q"}},
			"q": map[string]any{"parent": "root", "children": []string{"old", "new"},
				"message": map[string]any{"author": map[string]any{"role": "user"}, "create_time": 100.0, "content": map[string]any{"content_type": "text", "parts": []string{"question"}}}},
			"old": map[string]any{"parent": "q",
				"message": map[string]any{"author": map[string]any{"role": "assistant"}, "create_time": 101.0, "content": map[string]any{"content_type": "text", "parts": []string{"old answer"}}}},
			"new": map[string]any{"parent": "q",
				"message": map[string]any{"author": map[string]any{"role": "assistant"}, "create_time": 102.0, "content": map[string]any{"content_type": "text", "parts": []string{"new answer"}}}},
		},
	}
	data, _ := json.Marshal(conv)
	s, st, _ := newService(t)
	res := mustImport(t, s, data, Detect)
	if res.Imported != 1 {
		t.Fatalf("%+v", res)
	}
	c, _ := st.Conversation(context.Background(), res.Conversations[0])
	msgs, _ := st.ActivePath(context.Background(), res.Conversations[0])
	if c.Title != "Two answers" || len(msgs) != 2 || msgs[1].Text != "new answer" || c.ActiveLeafID != msgs[1].ID {
		t.Fatalf("%+v %+v", c, msgs)
	}
	// The other answer is kept, beside it.
	all, _ := st.AllMessages(context.Background(), res.Conversations[0])
	if len(all) != 3 || all[1].Text != "old answer" || all[1].ParentID != msgs[0].ID || all[2].ParentID != msgs[0].ID {
		t.Fatalf("%+v", all)
	}
	// Its times come from its messages; it has none of its own.
	if !c.CreatedAt.Equal(time.UnixMilli(100000)) || !c.UpdatedAt.Equal(time.UnixMilli(102000)) {
		t.Fatalf("times %v %v", c.CreatedAt, c.UpdatedAt)
	}
}

func TestChatGPTWithoutIDsIsStillIdempotent(t *testing.T) {
	data := []byte(`[{"title": "No id", "create_time": 1700000000, "mapping": {"a": {"message": {"author": {"role": "user"}, "content": {"content_type": "text", "parts": ["hi"]}}}}}]`)
	s, _, _ := newService(t)
	first := mustImport(t, s, data, Detect)
	second := mustImport(t, s, data, Detect)
	if first.Imported != 1 || second.Skipped != 1 || second.Imported != 0 {
		t.Fatalf("%+v %+v", first, second)
	}
}

// A file of one conversation without ids derives them from the conversation's bytes,
// whatever comes before its first brace.
func TestChatGPTContentIDIgnoresLeadingSpace(t *testing.T) {
	conv := `{"title": "No id", "create_time": 1700000000, "mapping": {"a": {"message": {"author": {"role": "user"}, "content": {"content_type": "text", "parts": ["hi"]}}}}}` + "\n"
	want := ids.FromName("chatgpt/content/" + conv)
	for _, data := range []string{conv, "\xef\xbb\xbf \n\t" + conv} {
		s, _, _ := newService(t)
		if res := mustImport(t, s, []byte(data), Detect); len(res.Conversations) != 1 || res.Conversations[0] != want {
			t.Fatalf("%q: %+v, want %s", data[:8], res, want)
		}
	}
}

// chatgptBranches is a ChatGPT conversation written from the format's public
// description, with every way it branches: the first question edited (two first
// messages under a hidden system prompt), a later question edited (its answer under a
// reasoning node that is not kept), an answer regenerated; current_node is the
// regenerated answer, which is not the newest message.
const chatgptBranches = "testdata/chatgpt/branches.json"

func TestChatGPTFixtureKeepsEveryBranch(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(chatgptBranches)
	if err != nil {
		t.Fatal(err)
	}
	s, st, _ := newService(t)
	res := mustImport(t, s, data, Detect)
	const key = "chatgpt/6801c0de-7a1b-8000-b2c3-d4e5f6a7b8c9"
	conv := ids.FromName(key)
	if res.Imported != 1 || res.Conversations[0] != conv {
		t.Fatalf("import %+v", res)
	}
	node := func(n int) string {
		return ids.FromName(fmt.Sprintf("%s/d1e2f3a4-0000-4000-8000-0000000000%02d", key, n))
	}
	type place struct {
		id, parent, role, text string
		at                     int64
	}
	const base = 1745000000000
	want := []place{ // saved depth first, each branch in the order ChatGPT made it
		{node(2), "", "user", "How long should I boil an egg?", base + 10000},
		{node(3), node(2), "assistant", "About 7 minutes for a firm yolk, then cool it in cold water.", base + 18000},
		{node(4), node(3), "user", "And for a soft one?", base + 40000},
		{node(5), node(4), "assistant", "6 minutes.", base + 46000},
		{node(6), node(4), "assistant", "Five to six minutes from boiling: the white sets and the yolk stays soft.", base + 70000},
		{node(7), node(3), "user", "And for a runny yolk?", base + 100000},
		// Under the reasoning it follows in ChatGPT, which is not kept.
		{node(9), node(7), "assistant", "Four minutes, straight from the fridge into boiling water.", base + 110000},
		// The first question edited: a first message too (its parent, the system prompt, is not kept).
		{node(10), "", "user", "How long should I boil a duck egg?", base + 200000},
		{node(11), node(10), "assistant", "About 9 minutes: duck eggs are bigger than hen's eggs.", base + 209000},
	}
	msgs, err := st.AllMessages(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	var got []place
	for _, m := range msgs {
		got = append(got, place{m.ID, m.ParentID, m.Role, m.Text, m.CreatedAt.UnixMilli()})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages\n got %+v\nwant %+v", got, want)
	}
	// current_node's branch is shown, though it is not the newest.
	c, _ := st.Conversation(ctx, conv)
	if c.ActiveLeafID != node(6) {
		t.Fatalf("leaf %s, want %s", c.ActiveLeafID, node(6))
	}
	path, _ := st.ActivePath(ctx, conv)
	var texts []string
	for _, m := range path {
		texts = append(texts, m.Text)
	}
	if !reflect.DeepEqual(texts, []string{want[0].text, want[1].text, want[2].text, want[4].text}) {
		t.Fatalf("branch shown %q", texts)
	}
	// The tree exports and comes back the same.
	first := exportAll(t, s, JSON)
	fresh, freshStore, _ := newService(t)
	mustImport(t, fresh, first, Detect)
	if again := exportAll(t, fresh, JSON); !bytes.Equal(again, first) {
		t.Fatalf("the re-export differs\n%s\n%s", first, again)
	}
	if leaf, _ := freshStore.Conversation(ctx, conv); leaf.ActiveLeafID != node(6) {
		t.Fatalf("leaf after a round trip %s", leaf.ActiveLeafID)
	}
}

// What the mapping says of a node's place is read through its parent: a parent the
// mapping lacks starts a branch, a children list that names nodes elsewhere or twice
// only orders siblings, and a current_node that is not kept shows the branch of its
// nearest kept ancestor.
func TestChatGPTTreeIsReadThroughParents(t *testing.T) {
	hidden := `{"parent":"q","children":["a"],"message":{"author":{"role":"tool"},"content":{"content_type":"execution_output","text":"42"}}}`
	cases := []struct {
		name, mapping, current string
		// want is each message's text and its parent's text, in the order saved; leaf the text shown last.
		want [][2]string
		leaf string
	}{
		{"a missing parent starts a branch",
			`"q":` + gptNodeJSON(`"gone"`, `["a"]`, "user", "question") + `,"a":` + gptNodeJSON(`"q"`, "[]", "assistant", "answer"),
			"a", [][2]string{{"question", ""}, {"answer", "question"}}, "answer"},
		{"children lists that lie",
			`"q":` + gptNodeJSON("null", `["b","b","q","zz","a"]`, "user", "question") +
				`,"a":` + gptNodeJSON(`"q"`, `["q"]`, "assistant", "first") + `,"b":` + gptNodeJSON(`"q"`, "[]", "assistant", "second"),
			"a", [][2]string{{"question", ""}, {"second", "question"}, {"first", "question"}}, "first"},
		{"current_node not kept",
			`"q":` + gptNodeJSON("null", `["t"]`, "user", "question") + `,"t":` + hidden + `,"a":` + gptNodeJSON(`"t"`, "[]", "assistant", "answer"),
			"t", [][2]string{{"question", ""}, {"answer", "question"}}, "question"},
		{"current_node with nothing kept above it",
			`"s":{"message":{"author":{"role":"system"},"content":{"content_type":"text","parts":["be brief"]}}},"q":` + gptNodeJSON("null", "[]", "user", "question"),
			"s", [][2]string{{"question", ""}}, "question"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := `{"id":"g","current_node":"` + tc.current + `","mapping":{` + tc.mapping + `}}`
			s, st, _ := newService(t)
			mustImport(t, s, []byte(data), Detect)
			conv := ids.FromName("chatgpt/g")
			msgs, _ := st.AllMessages(context.Background(), conv)
			text := map[string]string{"": ""}
			var got [][2]string
			for _, m := range msgs {
				text[m.ID] = m.Text
				got = append(got, [2]string{m.Text, text[m.ParentID]})
			}
			c, _ := st.Conversation(context.Background(), conv)
			if !reflect.DeepEqual(got, tc.want) || text[c.ActiveLeafID] != tc.leaf {
				t.Fatalf("got %q leaf %q, want %q leaf %q", got, text[c.ActiveLeafID], tc.want, tc.leaf)
			}
		})
	}
}

// The files a ChatGPT message lists keep their names, a line each: an image in its
// place, the other files before the text; names on one line without control or
// bidi characters; a message of files only is kept. The bytes are not in the export.
func TestChatGPTFileNames(t *testing.T) {
	data, err := os.ReadFile("testdata/chatgpt/files.json")
	if err != nil {
		t.Fatal(err)
	}
	s, st, _ := newService(t)
	if res := mustImport(t, s, data, Detect); res.Imported != 1 {
		t.Fatalf("import %+v", res)
	}
	msgs, err := st.AllMessages(context.Background(), ids.FromName("chatgpt/67f00000-0000-8000-8000-00000000f11e"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range msgs {
		got = append(got, m.Text)
	}
	want := []string{
		"📎 Q3 report.pdf\n📎 notes gnp.txt x\n\n📎 photo.jpg\n\n[image]\n\nWhat do the photo and these two files say?",
		"The report says sales grew.",
		"📎 app.log",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("texts\n got %q\nwant %q", got, want)
	}
}
