package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func ids(ms []Message) []string { return pluck(func(m Message) string { return m.ID }, ms) }

// A database of schema 8 with two conversations (messages, runs, display rows) and
// an empty one: migrated, every conversation is one branch in its order, its last
// message the leaf, and nothing is lost.
func TestTreeMigrationMakesOneBranchEach(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db}
	ctx := context.Background()
	if err := old.migrate(ctx, migrations[:8]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO conversations (id, title, room_id, created_at, updated_at) VALUES
			('a', 'A', 'r', 1, 1), ('b', 'B', 'r', 1, 1), ('empty', 'E', 'r', 1, 1);
		INSERT INTO messages (id, conversation_id, role, text, run_id, created_at) VALUES
			('a1', 'a', 'user', 'one', 'ra1', 10),
			('b1', 'b', 'user', 'uno', 'rb1', 11),
			('a2', 'a', 'assistant', 'two', 'ra1', 12),
			('b2', 'b', 'assistant', 'dos', 'rb1', 13),
			('a3', 'a', 'user', 'three', NULL, 14);
		INSERT INTO runs (id, conversation_id, user_message_id, status, started_at, ended_at) VALUES
			('ra1', 'a', 'a1', 'ended', 10, 12), ('rb1', 'b', 'b1', 'ended', 11, 13);
		INSERT INTO display_messages (id, conversation_id, run_id, message_type, content_type, content, created_at, updated_at) VALUES
			('da', 'a', 'ra1', 'assistant', 'text', '{}', 12, 12), ('db', 'b', 'rb1', 'assistant', 'text', '{}', 13, 13);`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type row struct {
		id, parent string
		depth      int
	}
	for conv, want := range map[string][]row{
		"a": {{"a1", "", 0}, {"a2", "a1", 1}, {"a3", "a2", 2}},
		"b": {{"b1", "", 0}, {"b2", "b1", 1}},
	} {
		all, err := s.AllMessages(ctx, conv)
		if err != nil {
			t.Fatal(err)
		}
		got := pluck(func(m Message) row { return row{m.ID, m.ParentID, m.Depth} }, all)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", conv, got, want)
		}
		path, _ := s.ActivePath(ctx, conv)
		if !reflect.DeepEqual(ids(path), ids(all)) {
			t.Errorf("%s: active branch %v, want all of %v", conv, ids(path), ids(all))
		}
		c, _ := s.Conversation(ctx, conv)
		if c.ActiveLeafID != want[len(want)-1].id {
			t.Errorf("%s: leaf %q, want %q", conv, c.ActiveLeafID, want[len(want)-1].id)
		}
	}
	if c, _ := s.Conversation(ctx, "empty"); c.ActiveLeafID != "" {
		t.Errorf("empty conversation: leaf %q", c.ActiveLeafID)
	}
	if got := columnOf(t, s, "SELECT id FROM runs ORDER BY id"); !reflect.DeepEqual(got, []string{"ra1", "rb1"}) {
		t.Errorf("runs %v", got)
	}
	if got := columnOf(t, s, "SELECT id FROM display_messages ORDER BY id"); !reflect.DeepEqual(got, []string{"da", "db"}) {
		t.Errorf("display messages %v", got)
	}
	// The tree grows on from the migrated leaf.
	m, err := s.AddMessage(ctx, Message{ID: "a4", ConversationID: "a", Role: "assistant", Text: "four", CreatedAt: at(15)})
	if err != nil || m.ParentID != "a3" || m.Depth != 3 {
		t.Fatalf("after migration: %+v, %v", m, err)
	}
}

// tree saves conversation "c" as the tree given by parent of each id (in order;
// "" for a root) and sets its leaf.
func tree(t *testing.T, s *Store, leaf string, edges ...[2]string) {
	t.Helper()
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	if err := s.InTx(ctx, func(tx *Tx) error {
		for i, e := range edges {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			if err := tx.ImportMessage(ctx, Message{ID: e[0], ParentID: e[1], ConversationID: "c", Role: role,
				Text: e[0], RunID: "r-" + e[0], CreatedAt: at(int64(10 + i))}); err != nil {
				return err
			}
		}
		if leaf != "" {
			return tx.SetActiveLeaf(ctx, "c", leaf)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// sample: u1 → a1 → u2 → a2, with u2 edited as u2b → a2b and a2b regenerated as
// a2c, and a second root r0 (the first message edited).
//
//	u1 ─ a1 ┬ u2  ─ a2
//	        └ u2b ┬ a2b
//	              └ a2c
//	r0
var sample = [][2]string{
	{"u1", ""}, {"a1", "u1"}, {"u2", "a1"}, {"a2", "u2"}, {"u2b", "a1"}, {"a2b", "u2b"}, {"r0", ""}, {"a2c", "u2b"},
}

func TestChildrenBySaveOrder(t *testing.T) {
	s, _ := openTemp(t)
	tree(t, s, "a2c", sample...)
	ctx := context.Background()
	got, err := s.Children(ctx, "c", []string{"", "a1", "u2b", "a2", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"": {"u1", "r0"}, "a1": {"u2", "u2b"}, "u2b": {"a2b", "a2c"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("children %v, want %v", got, want)
	}
	// Another conversation's messages are nobody's children here.
	if got, _ := s.Children(ctx, "other", []string{"", "a1"}); len(got) != 0 {
		t.Fatalf("children in another conversation: %v", got)
	}
}

func TestSwitchBranch(t *testing.T) {
	tests := []struct {
		name, leaf, to, want string
	}{
		{"down to the newest leaf", "a2", "u2b", "a2c"},
		{"the leaf stays when it is below", "a2b", "u2b", "a2b"},
		{"to a leaf exactly", "a2c", "a2", "a2"},
		{"from a root", "a2", "u1", "a2"},
		{"to another root", "a2", "r0", "r0"},
		{"the newest child at each step", "r0", "a1", "a2c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			tree(t, s, tt.leaf, sample...)
			leaf, err := s.SwitchBranch(context.Background(), "c", tt.to)
			if err != nil || leaf != tt.want {
				t.Fatalf("leaf %q, %v; want %q", leaf, err, tt.want)
			}
			if c, _ := s.Conversation(context.Background(), "c"); c.ActiveLeafID != tt.want {
				t.Fatalf("saved leaf %q, want %q", c.ActiveLeafID, tt.want)
			}
		})
	}
	s, _ := openTemp(t)
	tree(t, s, "a2", sample...)
	mustCreateConversation(t, s, "other", 1)
	mustAddMessage(t, s, Message{ID: "o1", ConversationID: "other", Role: "user", Text: "x", CreatedAt: at(1)})
	for _, id := range []string{"o1", "missing", ""} {
		if _, err := s.SwitchBranch(context.Background(), "c", id); !errors.Is(err, ErrNotFound) {
			t.Errorf("switch to %q: %v, want ErrNotFound", id, err)
		}
	}
}

// line saves conversation "c" as one branch of n messages m0…m{n-1}.
func line(t testing.TB, s *Store, n int) {
	ctx := context.Background()
	if err := s.CreateConversation(ctx, Conversation{ID: "c", Title: "t", RoomID: "r", CreatedAt: at(1)}); err != nil {
		t.Fatal(err)
	}
	if err := s.InTx(ctx, func(tx *Tx) error {
		for i := range n {
			if _, err := tx.AddMessage(ctx, Message{ID: fmt.Sprintf("m%d", i), ConversationID: "c", Role: "user",
				Text: "x", RunID: fmt.Sprintf("r%d", i/2), CreatedAt: at(int64(10 + i))}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func span(from, to int) []string {
	out := []string{}
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("m%d", i))
	}
	return out
}

func TestBranchPage(t *testing.T) {
	s, _ := openTemp(t)
	line(t, s, 20)
	tests := []struct {
		q                  PageQuery
		want               []string
		hasOlder, hasNewer bool
	}{
		{PageQuery{Limit: 5}, span(15, 19), true, false},
		{PageQuery{Limit: 50}, span(0, 19), false, false},
		{PageQuery{Limit: 20}, span(0, 19), false, false},
		{PageQuery{Limit: 5, Before: "m15"}, span(10, 14), true, true},
		{PageQuery{Limit: 5, Before: "m3"}, span(0, 2), false, true},
		{PageQuery{Limit: 5, Before: "m0"}, []string{}, false, true},
		{PageQuery{Limit: 5, After: "m3"}, span(4, 8), true, true},
		{PageQuery{Limit: 5, After: "m16"}, span(17, 19), true, false},
		{PageQuery{Limit: 5, After: "m19"}, []string{}, true, false},
		{PageQuery{Limit: 5, Around: "m10"}, span(8, 12), true, true},
		{PageQuery{Limit: 4, Around: "m10"}, span(8, 11), true, true},
		{PageQuery{Limit: 5, Around: "m1"}, span(0, 4), false, true},
		{PageQuery{Limit: 5, Around: "m19"}, span(15, 19), true, false},
		{PageQuery{Limit: 1, Around: "m7"}, span(7, 7), true, true},
	}
	for _, tt := range tests {
		got, err := s.BranchPage(context.Background(), "c", tt.q)
		if err != nil {
			t.Fatalf("%+v: %v", tt.q, err)
		}
		if !reflect.DeepEqual(ids(got.Messages), tt.want) || got.HasOlder != tt.hasOlder ||
			got.HasNewer != tt.hasNewer || got.BranchLength != 20 {
			t.Errorf("%+v: %v older %v newer %v length %d; want %v %v %v 20", tt.q, ids(got.Messages),
				got.HasOlder, got.HasNewer, got.BranchLength, tt.want, tt.hasOlder, tt.hasNewer)
		}
	}
}

func TestBranchPageOfATree(t *testing.T) {
	s, _ := openTemp(t)
	tree(t, s, "a2b", sample...)
	mustCreateConversation(t, s, "other", 1)
	mustAddMessage(t, s, Message{ID: "o1", ConversationID: "other", Role: "user", Text: "x", CreatedAt: at(1)})
	ctx := context.Background()
	got, err := s.BranchPage(ctx, "c", PageQuery{Limit: 10})
	if err != nil || !reflect.DeepEqual(ids(got.Messages), []string{"u1", "a1", "u2b", "a2b"}) || got.BranchLength != 4 {
		t.Fatalf("newest page %v (%d), %v", ids(got.Messages), got.BranchLength, err)
	}
	for _, q := range []PageQuery{{Limit: 2, Before: "a2"}, {Limit: 2, Around: "u2"}, {Limit: 2, After: "r0"}} {
		if _, err := s.BranchPage(ctx, "c", q); !errors.Is(err, ErrNotOnBranch) {
			t.Errorf("%+v (another branch): %v, want ErrNotOnBranch", q, err)
		}
	}
	for _, q := range []PageQuery{{Limit: 2, Before: "o1"}, {Limit: 2, Around: "missing"}} {
		if _, err := s.BranchPage(ctx, "c", q); !errors.Is(err, ErrNotFound) {
			t.Errorf("%+v: %v, want ErrNotFound", q, err)
		}
	}
	if _, err := s.BranchPage(ctx, "missing", PageQuery{Limit: 2}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown conversation: %v", err)
	}
	mustCreateConversation(t, s, "empty", 1)
	if got, err := s.BranchPage(ctx, "empty", PageQuery{Limit: 2}); err != nil || len(got.Messages) != 0 || got.HasOlder || got.BranchLength != 0 {
		t.Errorf("empty conversation: %+v, %v", got, err)
	}
}

// A page of a 10,000-message branch walks only from the leaf to the page: the page
// at the top of the branch is still one statement, and pages join up to the whole.
func TestBranchPagesOfALongConversation(t *testing.T) {
	s, _ := openTemp(t)
	const n = 10000
	line(t, s, n)
	ctx := context.Background()
	var all []string
	page, err := s.BranchPage(ctx, "c", PageQuery{Limit: 500})
	for err == nil {
		all = append(ids(page.Messages), all...)
		if !page.HasOlder {
			break
		}
		page, err = s.BranchPage(ctx, "c", PageQuery{Limit: 500, Before: page.Messages[0].ID})
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(all, span(0, n-1)) {
		t.Fatalf("the pages make %d messages, want %d in order", len(all), n)
	}
	top, err := s.BranchPage(ctx, "c", PageQuery{Limit: 100, Around: "m3"})
	if err != nil || !reflect.DeepEqual(ids(top.Messages), span(0, 99)) || top.BranchLength != n {
		t.Fatalf("around m3: %v…, %v", ids(top.Messages)[:3], err)
	}
	runs := []string{"r0", "r4999"}
	mustSaveDisplay(t, s, DisplayMessage{ID: "d1", ConversationID: "c", RunID: "r4999", MessageType: "assistant", ContentType: "text", Content: []byte(`{}`), CreatedAt: at(1)})
	mustSaveDisplay(t, s, DisplayMessage{ID: "d2", ConversationID: "c", RunID: "r7", MessageType: "assistant", ContentType: "text", Content: []byte(`{}`), CreatedAt: at(1)})
	mustSaveDisplay(t, s, DisplayMessage{ID: "d3", ConversationID: "c", RunID: "r0", MessageType: "assistant", ContentType: "text", Content: []byte(`{}`), CreatedAt: at(1)})
	d, err := s.RunDisplayMessages(ctx, "c", runs)
	if err != nil || !reflect.DeepEqual(pluck(func(d DisplayMessage) string { return d.ID }, d), []string{"d1", "d3"}) {
		t.Fatalf("display messages of %v: %v, %v", runs, d, err)
	}
	if d, _ := s.RunDisplayMessages(ctx, "other", runs); len(d) != 0 {
		t.Fatalf("display messages of another conversation: %v", d)
	}
	// A fork at the top: the branch switch descends 10,000 messages, and a truncate
	// near the root cuts them all, each in one statement.
	if err := s.InTx(ctx, func(tx *Tx) error {
		if err := tx.ImportMessage(ctx, Message{ID: "x1", ParentID: "m0", ConversationID: "c", Role: "user", Text: "x", CreatedAt: at(5)}); err != nil {
			return err
		}
		return tx.SetActiveLeaf(ctx, "c", "x1")
	}); err != nil {
		t.Fatal(err)
	}
	if leaf, err := s.SwitchBranch(ctx, "c", "m1"); err != nil || leaf != fmt.Sprintf("m%d", n-1) {
		t.Fatalf("switch down the long branch: %q, %v", leaf, err)
	}
	if deleted, err := s.TruncateMessages(ctx, "c", "m0", false); err != nil || deleted != n {
		t.Fatalf("truncate: %d, %v; want %d", deleted, err, n)
	}
	if c, _ := s.Conversation(ctx, "c"); c.ActiveLeafID != "m0" {
		t.Fatalf("leaf after the truncate %q", c.ActiveLeafID)
	}
}

func BenchmarkBranchPage(b *testing.B) {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "wisp.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	line(b, s, 10000)
	for _, q := range []PageQuery{{Limit: 100}, {Limit: 100, Around: "m5000"}, {Limit: 100, Before: "m100"}} {
		b.Run(fmt.Sprintf("%+v", q), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.BranchPage(context.Background(), "c", q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Truncating a tree cuts the subtree on every branch, the runs whose messages went
// and their display messages; the leaf moves back when it was cut.
func TestTruncateATree(t *testing.T) {
	tests := []struct {
		name, leaf, at string
		inclusive      bool
		left           []string
		wantLeaf       string
	}{
		{"every branch below", "a2c", "a1", false, []string{"u1", "a1", "r0"}, "a1"},
		{"inclusive: the leaf is the parent", "a2b", "u2b", true, []string{"u1", "a1", "u2", "a2", "r0"}, "a1"},
		{"another branch: the leaf stays", "a2", "u2b", true, []string{"u1", "a1", "u2", "a2", "r0"}, "a2"},
		{"a root, inclusive", "a2", "u1", true, []string{"r0"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			tree(t, s, tt.leaf, sample...)
			ctx := context.Background()
			for _, e := range sample {
				mustCreateRun(t, s, Run{ID: "r-" + e[0], ConversationID: "c", UserMessageID: e[0], StartedAt: at(1)})
				mustSaveDisplay(t, s, DisplayMessage{ID: "d-" + e[0], ConversationID: "c", RunID: "r-" + e[0],
					MessageType: "assistant", ContentType: "text", Content: []byte(`{}`), CreatedAt: at(1)})
			}
			if _, err := s.TruncateMessages(ctx, "c", tt.at, tt.inclusive); err != nil {
				t.Fatal(err)
			}
			all, _ := s.AllMessages(ctx, "c")
			if !reflect.DeepEqual(ids(all), tt.left) {
				t.Errorf("messages %v, want %v", ids(all), tt.left)
			}
			var runs, display []string
			for _, id := range tt.left {
				runs, display = append(runs, "r-"+id), append(display, "d-"+id)
			}
			if got := columnOf(t, s, "SELECT id FROM runs ORDER BY rowid"); !reflect.DeepEqual(got, runs) {
				t.Errorf("runs %v, want %v", got, runs)
			}
			if got := columnOf(t, s, "SELECT id FROM display_messages ORDER BY n"); !reflect.DeepEqual(got, display) {
				t.Errorf("display messages %v, want %v", got, display)
			}
			if c, _ := s.Conversation(ctx, "c"); c.ActiveLeafID != tt.wantLeaf {
				t.Errorf("leaf %q, want %q", c.ActiveLeafID, tt.wantLeaf)
			}
		})
	}
}

func TestAddUserTurnIsOneWrite(t *testing.T) {
	s, _ := openTemp(t)
	tree(t, s, "a2", sample...)
	ctx := context.Background()
	var saved Message
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		saved, err = tx.AddUserTurn(ctx, Message{ID: "u2c", ParentID: "a1", ConversationID: "c", Role: "user", Text: "again", CreatedAt: at(50)},
			Run{ID: "run", ConversationID: "c", UserMessageID: "u2c", StartedAt: at(50)})
		return err
	})
	if err != nil || saved.Depth != 2 || saved.ParentID != "a1" {
		t.Fatalf("saved %+v, %v", saved, err)
	}
	if c, _ := s.Conversation(ctx, "c"); c.ActiveLeafID != "u2c" {
		t.Fatalf("leaf %q", c.ActiveLeafID)
	}
	// A run that cannot be saved takes the message with it.
	err = s.InTx(ctx, func(tx *Tx) error {
		_, err := tx.AddUserTurn(ctx, Message{ID: "u2d", ParentID: "a1", ConversationID: "c", Role: "user", Text: "x", CreatedAt: at(60)},
			Run{ID: "run", ConversationID: "c", UserMessageID: "u2d", StartedAt: at(60)})
		return err
	})
	if err == nil {
		t.Fatal("a duplicate run was saved")
	}
	if _, err := s.Message(ctx, "c", "u2d"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the message of a failed turn: %v", err)
	}
	if c, _ := s.Conversation(ctx, "c"); c.ActiveLeafID != "u2c" {
		t.Fatalf("leaf after a failed turn %q", c.ActiveLeafID)
	}
	err = s.InTx(ctx, func(tx *Tx) error {
		_, err := tx.AddUserTurn(ctx, Message{ID: "u9", ParentID: "nope", ConversationID: "c", Role: "user", Text: "x", CreatedAt: at(60)},
			Run{ID: "run9", ConversationID: "c", UserMessageID: "u9", StartedAt: at(60)})
		return err
	})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("under an unknown parent: %v", err)
	}
}

// On a long branch with an early fork, a page walks from the nearest depth where the
// tree does not fork, and still tells the branches apart.
func TestBranchPageNearAFork(t *testing.T) {
	s, _ := openTemp(t)
	line(t, s, 20)
	ctx := context.Background()
	if err := s.InTx(ctx, func(tx *Tx) error {
		for _, m := range []Message{{ID: "m5b", ParentID: "m4"}, {ID: "m6b", ParentID: "m5b"}} {
			m.ConversationID, m.Role, m.Text, m.CreatedAt = "c", "user", "x", at(99)
			if err := tx.ImportMessage(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check := func(q PageQuery, want []string, wantErr error) {
		t.Helper()
		got, err := s.BranchPage(ctx, "c", q)
		if !errors.Is(err, wantErr) || (err == nil && !reflect.DeepEqual(ids(got.Messages), want)) {
			t.Errorf("%+v: %v, %v; want %v, %v", q, ids(got.Messages), err, want, wantErr)
		}
	}
	check(PageQuery{Limit: 5, Before: "m8"}, span(3, 7), nil)
	check(PageQuery{Limit: 3, Around: "m5"}, span(4, 6), nil)
	check(PageQuery{Limit: 3, Before: "m6b"}, nil, ErrNotOnBranch)
	check(PageQuery{Limit: 3, Around: "m5b"}, nil, ErrNotOnBranch)
	if _, err := s.SwitchBranch(ctx, "c", "m5b"); err != nil {
		t.Fatal(err)
	}
	check(PageQuery{Limit: 3, Around: "m5b"}, []string{"m4", "m5b", "m6b"}, nil)
	check(PageQuery{Limit: 3, Before: "m8"}, nil, ErrNotOnBranch)
	check(PageQuery{Limit: 3, Before: "m5b"}, span(2, 4), nil)
	check(PageQuery{Limit: 10}, []string{"m0", "m1", "m2", "m3", "m4", "m5b", "m6b"}, nil)
}
