package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/store"
)

// seedTree adds a conversation with branches: its first question edited (two first
// messages), a later question edited and its answer regenerated. The branch shown
// ends at a2b, which is not the newest message.
//
//	u1 → a1 → u2 → a2
//	          u2b → a2b (shown)
//	                a2c
//	u1b
func seedTree(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := st.CreateConversation(ctx, store.Conversation{ID: "c-tree", Title: "Eggs", RoomID: "room-3", CreatedAt: ms(t0 + 200)}); err != nil {
		t.Fatal(err)
	}
	msg := func(id, parent, role, text string, at int64) store.Message {
		return store.Message{ID: id, ConversationID: "c-tree", ParentID: parent, Role: role, Text: text, CreatedAt: ms(t0 + at)}
	}
	for _, m := range []store.Message{
		msg("u1", "", "user", "how long to boil an egg?", 10000),
		msg("a1", "", "assistant", "About 7 minutes.", 11000),
		msg("u2", "", "user", "and a soft one?", 12000),
		msg("a2", "", "assistant", "6 minutes.", 13000),
	} {
		if _, err := st.AddMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	err := st.InTx(ctx, func(tx *store.Tx) error {
		for _, m := range []store.Message{
			msg("u2b", "a1", "user", "and a runny yolk?", 14000),
			msg("a2b", "u2b", "assistant", "Four minutes.", 15000),
			msg("a2c", "u2b", "assistant", "Four and a half minutes.", 16000),
			msg("u1b", "", "user", "how long to boil a duck egg?", 17000),
		} {
			if err := tx.ImportMessage(ctx, m); err != nil {
				return err
			}
		}
		return tx.SetActiveLeaf(ctx, "c-tree", "a2b")
	})
	if err != nil {
		t.Fatal(err)
	}
}

// treeShape is each message's id and parent, in the order saved, and the leaf.
func treeShape(t *testing.T, st *store.Store, convID string) ([][2]string, string) {
	t.Helper()
	msgs, err := st.AllMessages(context.Background(), convID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.Conversation(context.Background(), convID)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, m := range msgs {
		out = append(out, [2]string{m.ID, m.ParentID})
	}
	return out, c.ActiveLeafID
}

func pathIDs(t *testing.T, st *store.Store, convID string) []string {
	t.Helper()
	path, err := st.ActivePath(context.Background(), convID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range path {
		ids = append(ids, m.ID)
	}
	return ids
}

func TestRoundTripOfATree(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	seedTree(t, st)
	first := exportAll(t, src, JSON)
	doc := decodeDocument(t, first)
	tree := doc.Conversations[2]
	if tree.ID != "c-tree" || deref(tree.ActiveLeafID) != "a2b" ||
		!reflect.DeepEqual(parentIDs(tree), []string{"", "u1", "a1", "u2", "a1", "u2b", "u2b", ""}) {
		t.Fatalf("exported tree: leaf %s, parents %q", deref(tree.ActiveLeafID), parentIDs(tree))
	}

	dst, dstStore, _ := newService(t)
	if res := mustImport(t, dst, first, Detect); res.Imported != 3 {
		t.Fatalf("import %+v", res)
	}
	if again := exportAll(t, dst, JSON); !bytes.Equal(again, first) {
		t.Fatalf("the re-export differs\nfirst:\n%s\nagain:\n%s", first, again)
	}
	wantShape, wantLeaf := treeShape(t, st, "c-tree")
	if shape, leaf := treeShape(t, dstStore, "c-tree"); !reflect.DeepEqual(shape, wantShape) || leaf != "a2b" || wantLeaf != "a2b" {
		t.Fatalf("imported tree %v leaf %s, want %v", shape, leaf, wantShape)
	}
	if path := pathIDs(t, dstStore, "c-tree"); !reflect.DeepEqual(path, []string{"u1", "a1", "u2b", "a2b"}) {
		t.Fatalf("branch shown %v", path)
	}
	msgs, _ := dstStore.AllMessages(context.Background(), "c-tree")
	for _, m := range msgs {
		if m.ID == "a2c" && m.Depth != 3 || m.ID == "u1b" && m.Depth != 0 {
			t.Fatalf("depth of %s: %d", m.ID, m.Depth)
		}
	}

	// Markdown shows the branch shown, and says the others are in the JSON.
	md := string(exportOne(t, dst, "c-tree", Markdown))
	if md != string(exportOne(t, src, "c-tree", Markdown)) {
		t.Fatalf("the Markdown differs:\n%s", md)
	}
	for _, want := range []string{"how long to boil an egg?", "About 7 minutes.", "and a runny yolk?", "Four minutes.",
		"the other branches (4 messages) are in the JSON export only."} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, other := range []string{"and a soft one?", "6 minutes.", "Four and a half", "duck egg"} {
		if strings.Contains(md, other) {
			t.Errorf("markdown shows %q of another branch:\n%s", other, md)
		}
	}
	if strings.Index(md, "About 7 minutes.") > strings.Index(md, "and a runny yolk?") {
		t.Errorf("markdown out of order:\n%s", md)
	}
}

// A version 1 file knew no branches: each conversation comes in as one branch in the
// order of the file, its last message the leaf, and whatever parentId it holds is
// not read. The seeded conversations are one branch each: they come back as they
// were.
func TestVersion1ImportsAsOneBranch(t *testing.T) {
	src, st, _ := newService(t)
	seed(t, st)
	v2 := exportAll(t, src, JSON)
	// The file as version 1 wrote it: no activeLeafId, no parentId.
	v1 := regexp.MustCompile(`\n *"(activeLeafId|parentId)": [^\n]*`).ReplaceAll(v2, nil)
	v1 = bytes.Replace(v1, []byte(`"version": 2,`), []byte(`"version": 1,`), 1)
	// Version 1 ignores fields it does not know: a parentId in it means nothing.
	v1 = bytes.Replace(v1, []byte(`"id": "m3",`), []byte(`"id": "m3", "parentId": "m1",`), 1)
	if bytes.Contains(v1, []byte("activeLeafId")) || bytes.Count(v1, []byte("parentId")) != 1 {
		t.Fatalf("not a version 1 file:\n%s", v1)
	}

	dst, dstStore, _ := newService(t)
	if res := mustImport(t, dst, v1, Wisp); res.Imported != 2 {
		t.Fatalf("import %+v", res)
	}
	if again := exportAll(t, dst, JSON); !bytes.Equal(again, v2) {
		t.Fatalf("version 1 did not come in as one branch\nwant:\n%s\ngot:\n%s", v2, again)
	}
	if shape, leaf := treeShape(t, dstStore, "c-music"); !reflect.DeepEqual(shape, [][2]string{{"m1", ""}, {"m2", "m1"}, {"m3", "m2"}}) || leaf != "m3" {
		t.Fatalf("tree %v leaf %s", shape, leaf)
	}
}

func TestImportRefusesABadTree(t *testing.T) {
	type obj = map[string]any
	file := func(version int, edit func(c1, c2 obj, m1, m2, m3, n1 obj)) string {
		msg := func(id string, parent any) obj {
			return obj{"id": id, "parentId": parent, "role": "user", "text": id, "createdAt": "2026-11-21T09:00:00.000Z"}
		}
		m1, m2, m3, n1 := msg("m1", nil), msg("m2", "m1"), msg("m3", "m2"), msg("n1", nil)
		c1 := obj{"id": "c1", "createdAt": "2026-11-21T09:00:00.000Z", "activeLeafId": "m3", "messages": []any{m1, m2, m3}}
		c2 := obj{"id": "c2", "createdAt": "2026-11-21T09:00:00.000Z", "activeLeafId": "n1", "messages": []any{n1}}
		if edit != nil {
			edit(c1, c2, m1, m2, m3, n1)
		}
		data, _ := json.Marshal(obj{"format": FormatName, "version": version, "exportedAt": "2026-11-21T09:30:00.000Z", "conversations": []any{c1, c2}})
		return string(data)
	}
	v2 := func(edit func(c1, c2 obj, m1, m2, m3, n1 obj)) string { return file(2, edit) }
	cases := []struct {
		name, data, want string
		depth            int
	}{
		{"an unknown parent", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = "nope" }),
			`conversations[0].messages[1].parentId: "nope" is not a message before it in this conversation`, 0},
		{"a parent after it", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = "m3" }),
			`conversations[0].messages[1].parentId: "m3" is not a message before it`, 0},
		{"its own parent", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = "m2" }),
			`conversations[0].messages[1].parentId: "m2" is not a message before it`, 0},
		{"a loop", v2(func(_, _, m1, m2, _, _ obj) { m1["parentId"] = "m2" }),
			`conversations[0].messages[0].parentId: "m2" is not a message before it`, 0},
		{"a parent in another conversation", v2(func(_, _, _, _, _, n1 obj) { n1["parentId"] = "m1" }),
			`conversations[1].messages[0].parentId: "m1" is not a message before it in this conversation`, 0},
		{"an empty parent", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = "" }),
			`conversations[0].messages[1].parentId: "" is not a message before it`, 0},
		{"a parent not a string", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = 3 }),
			"parentId must be a string, not number", 0},
		{"a long parent", v2(func(_, _, _, m2, _, _ obj) { m2["parentId"] = strings.Repeat("p", 1<<20) }),
			`parentId: "ppp`, 0},
		{"an unknown leaf", v2(func(c1, _, _, _, _, _ obj) { c1["activeLeafId"] = "nope" }),
			`conversations[0].activeLeafId: "nope" is not a message of this conversation`, 0},
		{"a leaf in another conversation", v2(func(c1, _, _, _, _, _ obj) { c1["activeLeafId"] = "n1" }),
			`conversations[0].activeLeafId: "n1" is not a message of this conversation`, 0},
		{"no leaf", v2(func(c1, _, _, _, _, _ obj) { delete(c1, "activeLeafId") }),
			"conversations[0].activeLeafId: is required", 0},
		{"a null leaf", v2(func(_, c2, _, _, _, _ obj) { c2["activeLeafId"] = nil }),
			"conversations[1].activeLeafId: is required", 0},
		{"a leaf without messages", v2(func(_, c2, _, _, _, _ obj) { c2["messages"] = []any{} }),
			"conversations[1].activeLeafId: must be null: the conversation has no message", 0},
		{"a leaf not a string", v2(func(c1, _, _, _, _, _ obj) { c1["activeLeafId"] = []int{1} }),
			"activeLeafId must be a string, not array", 0},
		{"too deep", v2(nil), "conversations[0].messages[2]: is at depth 2 on its branch: deeper than 1 is refused", 1},
		{"too deep in version 1", file(1, nil), "conversations[0].messages[2]: is at depth 2 on its branch: deeper than 1 is refused", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.depth > 0 {
				was := maxDepth
				maxDepth = tc.depth
				t.Cleanup(func() { maxDepth = was })
			}
			s, st, published := newService(t)
			_, err := s.Import(context.Background(), []byte(tc.data), Detect)
			shortRefusal(t, err, tc.want)
			if convs, _ := st.Conversations(context.Background()); len(convs) != 0 || len(published.updated()) != 0 {
				t.Fatalf("a refused file saved %+v", convs)
			}
		})
	}
	// The same files, unedited, import.
	for _, data := range []string{v2(nil), file(1, nil)} {
		s, st, _ := newService(t)
		if res := mustImport(t, s, []byte(data), Detect); res.Imported != 2 {
			t.Fatalf("%+v", res)
		}
		if shape, leaf := treeShape(t, st, "c1"); !reflect.DeepEqual(shape, [][2]string{{"m1", ""}, {"m2", "m1"}, {"m3", "m2"}}) || leaf != "m3" {
			t.Fatalf("tree %v leaf %s", shape, leaf)
		}
	}
}

// A conversation is read table by table: when its leaf is not among the messages read
// (they were cut meanwhile), or a parent is not, the file written still imports.
func TestExportWritesATreeThatImports(t *testing.T) {
	r := records{conv: store.Conversation{ID: "c", ActiveLeafID: "gone", CreatedAt: ms(t0), UpdatedAt: ms(t0)}, messages: []store.Message{
		{ID: "a", Role: "user", CreatedAt: ms(t0)},
		{ID: "b", ParentID: "cut", Role: "assistant", CreatedAt: ms(t0)},
		{ID: "c", ParentID: "a", Role: "assistant", CreatedAt: ms(t0)},
	}}
	doc := r.document()
	if got := parentIDs(doc); !reflect.DeepEqual(got, []string{"", "", "a"}) || deref(doc.ActiveLeafID) != "c" {
		t.Fatalf("parents %q leaf %q", got, deref(doc.ActiveLeafID))
	}
	if _, err := checkConversation(doc, "conversations[0]", seen{}, exportTime, Version); err != nil {
		t.Fatal(err)
	}
	if empty := (records{conv: store.Conversation{ID: "e", ActiveLeafID: "gone"}}).document(); empty.ActiveLeafID != nil {
		t.Fatalf("the leaf of a conversation without messages: %q", *empty.ActiveLeafID)
	}
}
