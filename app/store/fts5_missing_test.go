//go:build !sqlite_fts5 && !fts5 && !libsqlite3

package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// Built without the sqlite_fts5 tag (`go test ./...` by hand), opening a database
// says which tag is missing instead of failing on "no such module: fts5" in a
// migration. Every other test of this package fails with the same message then.
func TestOpenWithoutFTS5SaysWhichTag(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "wisp.db"))
	if !errors.Is(err, ErrNoFTS5) {
		t.Fatalf("err = %v, want %v", err, ErrNoFTS5)
	}
}
