package archive

import (
	"context"
	"reflect"
	"testing"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/ids"
)

// gptNodeJSON is a node with a message of role that says text.
func gptNodeJSON(parent, children, role, text string) string {
	return `{"parent":` + parent + `,"children":` + children + `,"message":{"author":{"role":"` + role +
		`"},"create_time":1700000000,"content":{"content_type":"text","parts":["` + text + `"]}}}`
}

func TestImportRefusesWhatIsNotAConversation(t *testing.T) {
	const wispHead = `{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00Z","conversations":`
	const good = `{"id":"c1","createdAt":"2026-11-21T09:00:00Z","messages":[]}`
	loop := `"a":` + gptNodeJSON(`"b"`, `["b"]`, "user", "hi") + `,"b":` + gptNodeJSON(`"a"`, `["a"]`, "assistant", "yo")
	cases := []struct{ name, data, want string }{
		{"ChatGPT null", `[null]`, "conversations[0] is null: a conversation must be an object"},
		{"ChatGPT null after one", `[{"mapping":{"a":` + gptNodeJSON("null", "[]", "user", "hi") + `}}, null]`, "conversations[1] is null"},
		{"ChatGPT number", `[3]`, "conversations[0] is a number: a conversation must be an object"},
		{"ChatGPT string", `["x"]`, "conversations[0] is a string: a conversation must be an object"},
		{"ChatGPT array", `[[]]`, "conversations[0] is an array: a conversation must be an object"},
		{"ChatGPT true", `[true]`, "conversations[0] is true: a conversation must be an object"},
		{"ChatGPT empty object", `[{}]`, "conversations[0].mapping is required: a ChatGPT conversation keeps its messages there"},
		{"ChatGPT null mapping", `[{"title":"t","mapping":null}]`, "conversations[0].mapping is required"},
		{"loop without current_node", `[{"mapping":{` + loop + `}}]`, `conversations[0].mapping has a loop: node "a" is its own ancestor`},
		{"loop from current_node", `[{"current_node":"b","mapping":{` + loop + `}}]`, `conversations[0].mapping has a loop: node "a" is its own ancestor`},
		{"loop beside a good branch", `[{"current_node":"r","mapping":{"r":` + gptNodeJSON("null", "[]", "user", "hi") + `,` + loop + `}}]`, `has a loop: node "a"`},
		{"node its own parent", `{"mapping":{"a":{"parent":"a"}},"current_node":"a"}`, `conversations[0].mapping has a loop: node "a" is its own ancestor`},
		{"ChatGPT bad time", `[{"id":"x","create_time":-5,"mapping":{}}]`, "conversations[0].create_time: -5 is out of range"},
		{"ChatGPT bad message time", `[{"mapping":{"n1":{"message":{"author":{"role":"user"},"create_time":-1,"content":{"content_type":"text","parts":["hi"]}}}}}]`, `conversations[0].mapping["n1"].message.create_time: -1 is out of range`},
		{"ChatGPT wrong type", `[{"mapping":{}},{"title":3,"mapping":{}}]`, "conversations[1]: title must be a string, not number"},
		{"Wisp null", wispHead + `[null]}`, "conversations[0] is null: a conversation must be an object"},
		{"Wisp null after one", wispHead + `[` + good + `,null]}`, "conversations[1] is null: a conversation must be an object"},
		{"Wisp number", wispHead + `[1]}`, "conversations[0] is a number: a conversation must be an object"},
		{"Wisp wrong type", wispHead + `[` + good + `,{"id":"c2","messages":{}}]}`, "conversations[1]: messages must be an array, not object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st, published := newService(t)
			_, err := s.Import(context.Background(), []byte(tc.data), Detect)
			shortRefusal(t, err, tc.want)
			if convs, _ := st.Conversations(context.Background()); len(convs) != 0 || len(published.updated()) != 0 {
				t.Fatalf("a refused file saved %+v", convs)
			}
		})
	}
}

// A ChatGPT conversation with nothing to bring in is not saved empty: it is listed in
// failed with why, and the rest of the file still comes in.
func TestChatGPTConversationWithNoMessageIsReported(t *testing.T) {
	hidden := `{"message":{"author":{"role":"system"},"content":{"content_type":"text","parts":["You are ChatGPT"]},"metadata":{"is_visually_hidden_from_conversation":true}}}`
	cases := []struct{ name, conv string }{
		{"no nodes", `{"id":"e","title":"Empty","mapping":{}}`},
		{"only a root", `{"id":"e","title":"Empty","mapping":{"root":{"message":null,"children":[]}}}`},
		{"only hidden", `{"id":"e","title":"Empty","current_node":"s","mapping":{"s":` + hidden + `}}`},
		{"only empty answers", `{"id":"e","title":"Empty","mapping":{"a":` + gptNodeJSON("null", "[]", "assistant", " ") + `}}`},
		// Read through parents, these are two roots without messages; the children
		// lists that loop only order siblings.
		{"children that loop", `{"id":"e","title":"Empty","mapping":{"a":{"children":["b"]},"b":{"children":["a"]}}}`},
	}
	full := `{"id":"f","title":"Full","mapping":{"a":` + gptNodeJSON("null", "[]", "user", "hi") + `}}`
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st, published := newService(t)
			res := mustImport(t, s, []byte(`[`+tc.conv+`,`+full+`]`), Detect)
			want := wire.ImportResult{Imported: 1, Conversations: []string{ids.FromName("chatgpt/f")},
				Failed: []wire.ImportFailure{{ID: ids.FromName("chatgpt/e"), Title: "Empty", Error: noMessageToImport}}}
			if !reflect.DeepEqual(res, want) {
				t.Fatalf("import %+v\nwant %+v", res, want)
			}
			if convs, _ := st.Conversations(context.Background()); len(convs) != 1 || convs[0].Title != "Full" || len(published.updated()) != 1 {
				t.Fatalf("saved %+v", convs)
			}
		})
	}
}

// A current_node the mapping lacks is as good as none: the newest leaf's branch.
func TestChatGPTCurrentNodeNotInTheMapping(t *testing.T) {
	data := `[{"id":"g","current_node":"gone","mapping":{"q":` + gptNodeJSON("null", `["a"]`, "user", "question") +
		`,"a":` + gptNodeJSON(`"q"`, "[]", "assistant", "answer") + `}}]`
	s, st, _ := newService(t)
	res := mustImport(t, s, []byte(data), Detect)
	msgs, _ := st.AllMessages(context.Background(), ids.FromName("chatgpt/g"))
	if res.Imported != 1 || len(msgs) != 2 || msgs[0].Text != "question" || msgs[1].Text != "answer" {
		t.Fatalf("%+v %+v", res, msgs)
	}
}

// Wisp makes a conversation before its first message: the export of one comes back.
func TestWispConversationWithoutMessagesImports(t *testing.T) {
	data := `{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00Z","conversations":[` +
		`{"id":"c1","title":"","createdAt":"2026-11-21T09:00:00Z","messages":[],"displayMessages":[],"runs":[]}]}`
	s, st, _ := newService(t)
	if res := mustImport(t, s, []byte(data), Detect); res.Imported != 1 {
		t.Fatalf("%+v", res)
	}
	if c, err := st.Conversation(context.Background(), "c1"); err != nil || c.Title != wire.DefaultTitle {
		t.Fatalf("%+v %v", c, err)
	}
}
