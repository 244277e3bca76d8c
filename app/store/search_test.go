package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// searchStore is a store with conversations a and b and these messages, by id.
func searchStore(t *testing.T, texts map[string]string) *Store {
	t.Helper()
	s, _ := openTemp(t)
	mustCreateConversation(t, s, "a", 1)
	mustCreateConversation(t, s, "b", 1)
	i := 0
	for _, id := range sortedKeys(texts) {
		i++
		conv, role := "a", "user"
		if i%2 == 0 {
			conv, role = "b", "assistant"
		}
		mustAddMessage(t, s, Message{ID: id, ConversationID: conv, Role: role, Text: texts[id], CreatedAt: at(int64(100 + i))})
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// searchIDs is the ids of every hit of the user's input, best first.
func searchIDs(t *testing.T, s *Store, input string) []string {
	t.Helper()
	hits, err := s.SearchMessages(context.Background(), MatchExpr(input), nil, 100)
	if err != nil {
		t.Fatalf("search %q: %v", input, err)
	}
	return pluck(func(h SearchHit) string { return h.MessageID }, hits)
}

func TestMatchExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"hello", `"hello"*`},
		{"hello ", `"hello"`},
		{"deploy stag", `"deploy" "stag"*`},
		{`say "hi"`, `"say" """hi"""*`},
		{"NEAR(a b) OR c", `"NEAR(a" "b)" "OR" "c"*`},
		{"text:secret -x ^y z*", `"text:secret" "-x" "^y" "z*"*`},
		{"!!! ?", ""},
		{"hello !!!", `"hello"`},
		{"a\x00b", `"a" "b"*`},
		{"bad\xffutf8", `"bad" "utf8"*`},
		{"tab\tand\nnewline", `"tab" "and" "newline"*`},
		{"café 東京", `"café" "東京"*`},
	}
	for _, tt := range tests {
		if got := MatchExpr(tt.in); got != tt.want {
			t.Errorf("MatchExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSearchFindsWordsPrefixesAndFoldedLetters(t *testing.T) {
	s := searchStore(t, map[string]string{
		"m1": "The staging deploy failed at midnight",
		"m2": "Café au lait, s'il vous plaît",
		"m3": "deploying to production tomorrow",
		"m4": "Nothing to see here",
		"m5": "東京 is big",
		"m6": "notes on text: staging, and NEAR(deploy",
	})
	tests := []struct {
		input string
		want  []string
	}{
		{"staging", []string{"m1", "m6"}},
		{"STAGING DEPLOY", []string{"m1", "m6"}},
		{"deploy", []string{"m1", "m3", "m6"}},    // prefix: deploy, deploying
		{"deploy ", []string{"m1", "m6"}},         // a finished word is whole
		{"cafe", []string{"m2"}},                  // diacritics folded
		{"plait", []string{"m2"}},                 // ditto
		{"deploy midnight", []string{"m1"}},       // every word must match
		{"deploy nothing", nil},                   // none has both
		{"東京", []string{"m5"}},                    // non-Latin scripts
		{`"deploy`, []string{"m1", "m3", "m6"}},   // a stray quote is text
		{"deploy -staging", []string{"m1", "m6"}}, // a minus is not NOT
		{"text:staging", []string{"m6"}},          // a colon is no column filter: the words, in a row
		{"deploy OR nothing", nil},                // OR is no operator
		{"NEAR(deploy ", []string{"m6"}},          // nor NEAR
	}
	for _, tt := range tests {
		got := searchIDs(t, s, tt.input)
		if !reflect.DeepEqual(sortedCopy(got), sortedCopy(tt.want)) {
			t.Errorf("search %q = %v, want %v", tt.input, got, tt.want)
		}
	}
}

func sortedCopy(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return slices.Sorted(slices.Values(xs))
}

func TestSearchRanksByRelevance(t *testing.T) {
	s := searchStore(t, map[string]string{
		"m1": "one mention of kiwi among many many other words in a long message about fruit and the market and prices",
		"m2": "kiwi kiwi kiwi",
		"m3": "kiwi and a banana",
		"m4": "no fruit here",
	})
	if got, want := searchIDs(t, s, "kiwi "), []string{"m2", "m3", "m1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ranking = %v, want %v", got, want)
	}
}

func TestSearchHitCarriesItsMessageAndSnippet(t *testing.T) {
	s := searchStore(t, map[string]string{
		"m1": "Hello there",
		"m2": "We talked about the <b>Café</b> & its deploy pipeline, which was broken for a long while before anyone noticed it at all",
	})
	hits, err := s.SearchMessages(context.Background(), MatchExpr("cafe deploy"), nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits = %+v", hits)
	}
	h := hits[0]
	if h.MessageID != "m2" || h.ConversationID != "b" || h.ConversationTitle != "Chat b" || h.Role != "assistant" || !h.CreatedAt.Equal(at(102)) {
		t.Errorf("hit = %+v", h)
	}
	if strings.ContainsAny(h.Snippet, "\uE000\uE001") {
		t.Errorf("snippet kept its markers: %q", h.Snippet)
	}
	if !strings.HasPrefix(h.Snippet, "We talked about the <b>Café</b> & its deploy") || !strings.HasSuffix(h.Snippet, "…") {
		t.Errorf("snippet = %q, want the text around the matches, cut with an ellipsis", h.Snippet)
	}
	var marked []string
	for _, m := range h.Marks {
		marked = append(marked, h.Snippet[m.Start:m.End])
	}
	if want := []string{"Café", "deploy"}; !reflect.DeepEqual(marked, want) {
		t.Errorf("marked %q, want %q", marked, want)
	}
}

func TestSearchSnippetOfTextWithMarkerCharacters(t *testing.T) {
	s := searchStore(t, map[string]string{"m1": "odd \uE001 private \uE000 use kiwi"})
	hits, err := s.SearchMessages(context.Background(), MatchExpr("kiwi"), nil, 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits = %+v, %v", hits, err)
	}
	if hits[0].Snippet != "odd  private  use kiwi" || hits[0].Marks != nil {
		t.Fatalf("snippet %q marks %v: want the markers out and no highlights", hits[0].Snippet, hits[0].Marks)
	}
}

func TestParseSnippet(t *testing.T) {
	tests := []struct {
		in        string
		text      string
		wantMarks []Span
	}{
		{"plain", "plain", nil},
		{"a \uE000b\uE001 c \uE000dé\uE001", "a b c dé", []Span{{2, 3}, {6, 9}}},
		{"\uE000\uE001empty", "empty", nil},
		{"\uE001close first \uE000open", "close first open", nil},
		{"\uE000a\uE000b\uE001", "ab", []Span{{0, 2}}},
	}
	for _, tt := range tests {
		text, marks := parseSnippet(tt.in, true)
		if text != tt.text || !reflect.DeepEqual(marks, tt.wantMarks) {
			t.Errorf("parseSnippet(%q) = %q %v, want %q %v", tt.in, text, marks, tt.text, tt.wantMarks)
		}
	}
}

// Pages follow each other by key: every hit once, in rank order, ties (the same
// text, the same score) included.
func TestSearchPagesByKey(t *testing.T) {
	texts := map[string]string{}
	for i := range 25 {
		texts[fmt.Sprintf("m%02d", i)] = strings.Repeat("filler ", i%4) + "pear"
	}
	s := searchStore(t, texts)
	ctx := context.Background()
	all, err := s.SearchMessages(ctx, MatchExpr("pear"), nil, 100)
	if err != nil || len(all) != 25 {
		t.Fatalf("all = %d hits, %v", len(all), err)
	}
	var paged []SearchHit
	var after *SearchKey
	for page := 0; ; page++ {
		hits, err := s.SearchMessages(ctx, MatchExpr("pear"), after, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			break
		}
		if page > 10 {
			t.Fatal("paging does not end")
		}
		paged = append(paged, hits...)
		after = &hits[len(hits)-1].Key
	}
	if !reflect.DeepEqual(paged, all) {
		t.Fatalf("pages:\n%v\nwhole:\n%v", pluck(func(h SearchHit) string { return h.MessageID }, paged),
			pluck(func(h SearchHit) string { return h.MessageID }, all))
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1].Key, all[i].Key
		if a.Rank > b.Rank || a.Rank == b.Rank && a.N >= b.N {
			t.Fatalf("hits %d and %d are out of order: %v, %v", i-1, i, a, b)
		}
	}
}

// FTS5 sorts the matches with SQLite's sorter; with little memory the sort spills
// into several runs merged afterwards. Equal scores still come in row order, so
// pages by key are exact: here 6,000 hits in three groups of equal score, sorted
// with a cache of one page, paged by 250 and compared with the order (rank, n).
func TestSearchPagesByKeyWhenTheSortSpills(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	s.db.SetMaxOpenConns(1) // the pragma below holds for the one connection
	if _, err := s.db.Exec("PRAGMA cache_size = 1"); err != nil {
		t.Fatal(err)
	}
	mustCreateConversation(t, s, "c", 1)
	texts := []string{"fig", "fig and more", "a fig among several other words"}
	if err := s.InTx(ctx, func(tx *Tx) error {
		for i := range 6000 {
			m := Message{ID: fmt.Sprintf("m%04d", i), ConversationID: "c", Role: "user", Text: texts[i%3], CreatedAt: at(int64(10 + i))}
			if _, err := tx.AddMessage(ctx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var want []SearchKey
	rows, err := s.db.Query("SELECT rank, rowid FROM messages_fts WHERE messages_fts MATCH 'fig'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k SearchKey
		if err := rows.Scan(&k.Rank, &k.N); err != nil {
			t.Fatal(err)
		}
		want = append(want, k)
	}
	rows.Close()
	slices.SortFunc(want, func(a, b SearchKey) int {
		if a.Rank != b.Rank {
			return cmp.Compare(a.Rank, b.Rank)
		}
		return cmp.Compare(a.N, b.N)
	})
	var got []SearchKey
	var after *SearchKey
	for len(got) <= len(want) {
		hits, err := s.SearchMessages(ctx, `"fig"`, after, 250)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			break
		}
		got = append(got, pluck(func(h SearchHit) SearchKey { return h.Key }, hits)...)
		after = &hits[len(hits)-1].Key
	}
	if len(want) != 6000 || !slices.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("paged %d keys, want %d in (rank, n) order; first difference at %d", len(got), len(want), i)
	}
}

// The index follows the messages: new ones, cut ones, deleted conversations and
// edited text.
func TestSearchIndexFollowsMessages(t *testing.T) {
	s := searchStore(t, map[string]string{"m1": "plum one", "m2": "plum two", "m3": "plum three"})
	ctx := context.Background()
	mustAddMessage(t, s, Message{ID: "m4", ConversationID: "a", Role: "user", Text: "plum four", CreatedAt: at(500)})
	if got := searchIDs(t, s, "plum four"); !reflect.DeepEqual(got, []string{"m4"}) {
		t.Fatalf("a new message: %v", got)
	}
	if _, err := s.TruncateMessages(ctx, "a", "m4", true); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, s, "four"); len(got) != 0 {
		t.Fatalf("a cut message is still found: %v", got)
	}
	if err := s.DeleteConversation(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if got := sortedCopy(searchIDs(t, s, "plum")); !reflect.DeepEqual(got, []string{"m1", "m3"}) {
		t.Fatalf("after deleting conversation b: %v", got)
	}
	if _, err := s.db.Exec("UPDATE messages SET text = 'apricot one' WHERE id = 'm1'"); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, s, "plum"); !reflect.DeepEqual(got, []string{"m3"}) {
		t.Fatalf("an edited message is found by its old text: %v", got)
	}
	if got := searchIDs(t, s, "apricot"); !reflect.DeepEqual(got, []string{"m1"}) {
		t.Fatalf("an edited message is not found by its new text: %v", got)
	}
	if _, err := s.db.Exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)"); err != nil {
		t.Fatalf("the index and the messages disagree: %v", err)
	}
}

// A database from before search (schema 6) with messages: opened by this Wisp, its
// messages are found.
func TestSearchMigrationIndexesExistingMessages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+dsnParams)
	if err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db}
	if err := old.migrate(context.Background(), migrations[:6]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO conversations (id, title, room_id, created_at, updated_at) VALUES ('c', 'Trip', 'r', 1, 1);
		INSERT INTO messages (id, conversation_id, role, text, created_at) VALUES
			('m1', 'c', 'user', 'Book the train to Zürich', 10),
			('m2', 'c', 'assistant', 'Booked: the 9:02 train, seat 41', 11),
			('m3', 'c', 'user', 'thanks', 12);`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := searchIDs(t, s, "train"); !reflect.DeepEqual(sortedCopy(got), []string{"m1", "m2"}) {
		t.Fatalf("train: %v", got)
	}
	if got := searchIDs(t, s, "zurich"); !reflect.DeepEqual(got, []string{"m1"}) {
		t.Fatalf("zurich: %v", got)
	}
	// And new messages are indexed from then on.
	mustAddMessage(t, s, Message{ID: "m4", ConversationID: "c", Role: "user", Text: "and the return train", CreatedAt: at(13)})
	if got := searchIDs(t, s, "return train"); !reflect.DeepEqual(got, []string{"m4"}) {
		t.Fatalf("return train: %v", got)
	}
}

// hostileQueries are inputs a search box may get; none may be an FTS5 error.
var hostileQueries = []string{
	`"`, `""`, `"""`, `*`, `a*b`, `-`, `- a`, `a -b`, `:`, `text:`, `text:a`, `{text}: a`, `^a`, `a^`,
	`NEAR`, `NEAR(`, `NEAR(a b, 2)`, `a NEAR b`, `AND`, `OR`, `NOT`, `a AND`, `OR b`, `NOT NOT`,
	`(`, `)`, `(a OR b)`, `a + b`, `+`, `'`, `';DROP TABLE messages;--`, `\`, `\"`, "\x00", "a\x00",
	"\u202e", "\uE000", "e\u0301", "🔥", "a\u200bb", strings.Repeat("x", 10000), strings.Repeat("a ", 500),
}

func TestSearchHostileInputIsNeverAnError(t *testing.T) {
	s := searchStore(t, map[string]string{"m1": "a b text NEAR and or not"})
	for _, q := range hostileQueries {
		match := MatchExpr(q)
		if match == "" {
			continue
		}
		if _, err := s.SearchMessages(context.Background(), match, &SearchKey{Rank: -1, N: 1}, 5); err != nil {
			t.Errorf("search %q (%s): %v", q, match, err)
		}
	}
}

// FuzzMatchExpr: whatever a user types, the FTS5 query it becomes is valid.
func FuzzMatchExpr(f *testing.F) {
	for _, q := range hostileQueries {
		if len(q) < 100 { // long seeds only slow the fuzzer's minimising down
			f.Add(q)
		}
	}
	s, err := Open(context.Background(), filepath.Join(f.TempDir(), "wisp.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.CreateConversation(ctx, Conversation{ID: "c", Title: "t", RoomID: "r", CreatedAt: at(1)}); err != nil {
		f.Fatal(err)
	}
	if _, err := s.AddMessage(ctx, Message{ID: "m", ConversationID: "c", Role: "user", Text: "a text NEAR café 🔥", CreatedAt: at(2)}); err != nil {
		f.Fatal(err)
	}
	stmt, err := s.db.Prepare("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?")
	if err != nil {
		f.Fatal(err)
	}
	defer stmt.Close()
	f.Fuzz(func(t *testing.T, q string) {
		match := MatchExpr(q)
		if match == "" {
			return
		}
		var n int
		if err := stmt.QueryRow(match).Scan(&n); err != nil {
			t.Fatalf("MatchExpr(%q) = %s: %v", q, match, err)
		}
	})
}
