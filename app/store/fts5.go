package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNoFTS5 reports a Wisp built without SQLite's full-text search, which the search
// over all history needs: mattn/go-sqlite3 compiles FTS5 in only with a build tag.
var ErrNoFTS5 = errors.New("SQLite was built without FTS5: build with -tags sqlite_fts5")

// requireFTS5 fails with ErrNoFTS5 unless the linked SQLite has the fts5 module, so a
// binary or test built without the tag says what to do instead of "no such module".
func requireFTS5(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_module_list WHERE name = 'fts5'").Scan(&n); err != nil {
		return fmt.Errorf("look for FTS5: %w", err)
	}
	if n == 0 {
		return ErrNoFTS5
	}
	return nil
}
