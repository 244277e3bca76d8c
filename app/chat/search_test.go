package chat

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// searchEnv is a service whose one conversation has these messages, in order.
func searchEnv(t *testing.T, texts ...string) (*env, string) {
	t.Helper()
	e := newEnv(t, newScript(-1))
	conv := e.conversation()
	for i, text := range texts {
		if _, err := e.st.AddMessage(context.Background(), store.Message{ID: fmt.Sprintf("m%d", i), ConversationID: conv,
			Role: "user", Text: text, CreatedAt: time.UnixMilli(int64(1000 + i))}); err != nil {
			t.Fatal(err)
		}
	}
	return e, conv
}

func messageIDs(rs []wire.SearchResult) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.MessageID
	}
	return out
}

func TestSearchPagesWithCursors(t *testing.T) {
	var texts []string
	for i := range 7 {
		texts = append(texts, strings.Repeat("other words ", i)+"the lantern festival")
	}
	e, conv := searchEnv(t, texts...)
	ctx := context.Background()
	whole, err := e.svc.Search(ctx, "lantern fest", 0, "")
	if err != nil || len(whole.Results) != 7 || whole.NextCursor != "" {
		t.Fatalf("one page: %+v, %v", whole, err)
	}
	if r := whole.Results[0]; r.ConversationID != conv || r.ConversationTitle != wire.DefaultTitle || r.Role != "user" ||
		r.MessageID != "m0" || r.CreatedAt != 1000 || r.Snippet != "the lantern festival" ||
		!reflect.DeepEqual(r.Highlights, []wire.Highlight{{Start: 4, End: 11}, {Start: 12, End: 20}}) {
		t.Fatalf("best hit = %+v", r)
	}
	var paged []wire.SearchResult
	cursor := ""
	for page := 0; page < 10; page++ {
		res, err := e.svc.Search(ctx, "lantern fest", 3, cursor)
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, res.Results...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	if !reflect.DeepEqual(messageIDs(paged), messageIDs(whole.Results)) {
		t.Fatalf("pages of 3 gave %v, one page %v", messageIDs(paged), messageIDs(whole.Results))
	}
}

func TestSearchRefusesWhatItCannotAnswer(t *testing.T) {
	e, _ := searchEnv(t, "lantern")
	ctx := context.Background()
	first, err := e.svc.Search(ctx, "lantern", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	other := encodeCursor(store.SearchKey{Rank: -1, N: 1}, store.MatchExpr("something else"))
	tests := []struct {
		name, q, cursor string
		limit           int
		want            string
	}{
		{"no words", "", "", 0, "q is required"},
		{"only spaces", " \t\n", "", 0, "q is required"},
		{"too long", strings.Repeat("a", SearchMaxBytes+1), "", 0, "longer than"},
		{"too many words", strings.Repeat("a ", SearchMaxWords+1), "", 0, "more than"},
		{"limit under 1", "lantern", "", -1, "limit must be"},
		{"limit over the max", "lantern", "", SearchMaxLimit + 1, "limit must be"},
		{"a cursor that is not base64", "lantern", "!!", 0, "cursor"},
		{"a cursor too short", "lantern", "AAAA", 0, "cursor"},
		{"a cursor too long", "lantern", strings.Repeat("A", 100), 0, "cursor"},
		{"another search's cursor", "lantern", other, 0, "cursor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.svc.Search(ctx, tt.q, tt.limit, tt.cursor)
			if !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want an Invalid error saying %q", err, tt.want)
			}
		})
	}
	if first.NextCursor != "" {
		t.Fatalf("a single hit has a next page: %q", first.NextCursor)
	}
}

func TestSearchWithoutWordsFindsNothing(t *testing.T) {
	e, _ := searchEnv(t, "lantern")
	res, err := e.svc.Search(context.Background(), `!!! "" --`, 0, "")
	if err != nil || res.Results == nil || len(res.Results) != 0 || res.NextCursor != "" {
		t.Fatalf("res = %#v, %v; want no results (an empty list)", res, err)
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, k := range []store.SearchKey{{Rank: -3.25, N: 1}, {Rank: 0, N: 0}, {Rank: -1e-300, N: math.MaxInt64}, {Rank: 7, N: -5}} {
		got, err := decodeCursor(encodeCursor(k, `"a"*`), `"a"*`)
		if err != nil || got != k {
			t.Errorf("%v came back as %v, %v", k, got, err)
		}
		if _, err := decodeCursor(encodeCursor(k, `"a"*`), `"a"`); err == nil {
			t.Errorf("%v: a cursor of another query was taken", k)
		}
	}
}

// FuzzDecodeCursor: whatever a client sends as a cursor is a clean refusal or a key
// that encodes back to it.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(store.SearchKey{Rank: -2.5, N: 42}, "q"), "q")
	f.Add("", "")
	f.Add("////", "q")
	f.Fuzz(func(t *testing.T, s, match string) {
		k, err := decodeCursor(s, match)
		if err != nil {
			if !fault.Is(err, fault.Invalid) {
				t.Fatalf("decodeCursor(%q) = %v, want an Invalid error", s, err)
			}
			return
		}
		if again, err := decodeCursor(encodeCursor(k, match), match); err != nil || again != k {
			t.Fatalf("%q decoded to %v, which does not round-trip: %v, %v", s, k, again, err)
		}
	})
}
