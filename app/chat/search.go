package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
)

// Search bounds.
const (
	SearchDefaultLimit = 20
	SearchMaxLimit     = 100
	SearchMaxBytes     = 500 // of the query text
	SearchMaxWords     = 32
	// SearchTimeout bounds one search: a prefix that matches most of a large history
	// is answered with a clear error instead of holding a core.
	SearchTimeout = 5 * time.Second
)

// Search finds the messages of every conversation that match the words of q, best
// first (bm25), limit of them (0: SearchDefaultLimit), starting after cursor (""
// for the first page). The last word matches as a prefix unless q ends in a space.
// A q with no letters or digits matches nothing.
func (s *Service) Search(ctx context.Context, q string, limit int, cursor string) (wire.SearchResults, error) {
	match, err := searchMatch(q)
	if err != nil {
		return wire.SearchResults{}, err
	}
	if limit == 0 {
		limit = SearchDefaultLimit
	}
	if limit < 1 || limit > SearchMaxLimit {
		return wire.SearchResults{}, fault.Invalid.Errorf("limit must be from 1 to %d", SearchMaxLimit)
	}
	var after *store.SearchKey
	if cursor != "" {
		key, err := decodeCursor(cursor, match)
		if err != nil {
			return wire.SearchResults{}, err
		}
		after = &key
	}
	out := wire.SearchResults{Results: []wire.SearchResult{}}
	if match == "" {
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, SearchTimeout)
	defer cancel()
	hits, err := s.store.SearchMessages(ctx, match, after, limit+1)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return wire.SearchResults{}, fault.Unavailable.Errorf("the search took longer than %v: use longer or more words", SearchTimeout)
		}
		return wire.SearchResults{}, err
	}
	if len(hits) > limit {
		hits = hits[:limit]
		out.NextCursor = encodeCursor(hits[limit-1].Key, match)
	}
	for _, h := range hits {
		out.Results = append(out.Results, view.SearchResult(h))
	}
	return out, nil
}

// searchMatch checks q and turns it into the store's match expression.
func searchMatch(q string) (string, error) {
	switch {
	case strings.TrimSpace(q) == "":
		return "", fault.Invalid.Errorf("q is required: the words to search for")
	case len(q) > SearchMaxBytes:
		return "", fault.Invalid.Errorf("q is longer than %d bytes", SearchMaxBytes)
	case len(strings.Fields(q)) > SearchMaxWords:
		return "", fault.Invalid.Errorf("q has more than %d words", SearchMaxWords)
	}
	return store.MatchExpr(q), nil
}
