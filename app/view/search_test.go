package view

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

func TestSearchResultCountsUTF16(t *testing.T) {
	snippet := "…le café 🚆 à Zürich, 東京…"
	words := []string{"café", "🚆", "Zürich", "東京"}
	var marks []store.Span
	for _, w := range words {
		i := strings.Index(snippet, w)
		marks = append(marks, store.Span{Start: i, End: i + len(w)})
	}
	at := time.UnixMilli(1763715600000)
	got := SearchResult(store.SearchHit{MessageID: "m", ConversationID: "c", ConversationTitle: "T", Role: "user",
		CreatedAt: at, Snippet: snippet, Marks: marks})
	if got.MessageID != "m" || got.ConversationID != "c" || got.ConversationTitle != "T" || got.Role != "user" ||
		got.CreatedAt != 1763715600000 || got.Snippet != snippet {
		t.Fatalf("result = %+v", got)
	}
	units := utf16.Encode([]rune(snippet))
	var sliced []string
	for _, h := range got.Highlights {
		sliced = append(sliced, string(utf16.Decode(units[h.Start:h.End])))
	}
	if !reflect.DeepEqual(sliced, words) {
		t.Fatalf("the highlights slice %q out of the UTF-16 text, want %q", sliced, words)
	}
}

func TestUTF16SpansSkipsBadRanges(t *testing.T) {
	span := func(start, end int) store.Span { return store.Span{Start: start, End: end} }
	got := utf16Spans("abcdef", []store.Span{span(2, 3), span(1, 2), span(4, 3), span(4, 99), span(4, 6)})
	if want := []wire.Highlight{{Start: 2, End: 3}, {Start: 4, End: 6}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
