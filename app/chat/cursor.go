package chat

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"math"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
)

// A search cursor is where the next page starts, opaque to clients: the last hit's
// score (its exact bits) and row, and a short hash of the query it belongs to, so a
// cursor sent with other words is refused instead of paging nonsense.
const (
	cursorHashBytes = 4
	maxCursorLen    = 64
)

var errBadCursor = fault.Invalid.Errorf("cursor is not one this search gave: start again without it")

func encodeCursor(k store.SearchKey, match string) string {
	b := make([]byte, 0, 8+binary.MaxVarintLen64+cursorHashBytes)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(k.Rank))
	b = binary.AppendVarint(b, k.N)
	b = append(b, queryHash(match)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s, match string) (store.SearchKey, error) {
	if len(s) > maxCursorLen {
		return store.SearchKey{}, errBadCursor
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 8+1+cursorHashBytes {
		return store.SearchKey{}, errBadCursor
	}
	rank := math.Float64frombits(binary.BigEndian.Uint64(b))
	n, size := binary.Varint(b[8:])
	rest := b[8+max(size, 0):]
	if size <= 0 || math.IsNaN(rank) || math.IsInf(rank, 0) || string(rest) != string(queryHash(match)) {
		return store.SearchKey{}, errBadCursor
	}
	return store.SearchKey{Rank: rank, N: n}, nil
}

func queryHash(match string) []byte {
	sum := sha256.Sum256([]byte(match))
	return sum[:cursorHashBytes]
}
