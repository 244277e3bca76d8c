package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wisp.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// schemaOf dumps everything that defines the schema, in a stable order.
func schemaOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, tbl, stmt string
		if err := rows.Scan(&typ, &name, &tbl, &stmt); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s %s %s\n", typ, name, tbl, stmt)
	}
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "user_version %d\n", v)
	return b.String()
}

func TestOpenSettings(t *testing.T) {
	s, path := openTemp(t)
	var mode string
	var fk, busy int
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v", mode, err)
	}
	if err := s.db.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v", fk, err)
	}
	if err := s.db.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil || busy != 5000 {
		t.Errorf("busy_timeout = %d, %v", busy, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("database mode = %v, %v", st.Mode().Perm(), err)
	}
}

func TestMigratingTwiceIsHarmless(t *testing.T) {
	s, path := openTemp(t)
	if err := s.AppendStreamEvents(context.Background(), []StreamEvent{{ID: 1, Type: "agent_event", TS: 1, Data: []byte("{}")}}, 10); err != nil {
		t.Fatal(err)
	}
	before := schemaOf(t, s.db)
	s.Close()
	again, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if after := schemaOf(t, again.db); after != before {
		t.Fatalf("schema changed on second migration:\n%s\nvs\n%s", before, after)
	}
	got, err := again.RecentStreamEvents(context.Background(), 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("data lost on second migration: %v, %v", got, err)
	}
}

// Every older schema, migrated forward, must equal a fresh database.
func TestOldSchemasMigrateToFresh(t *testing.T) {
	fresh, _ := openTemp(t)
	want := schemaOf(t, fresh.db)
	for v := 0; v < SchemaVersion(); v++ {
		t.Run(fmt.Sprintf("from_v%d", v), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			db, err := sql.Open("sqlite3", "file:"+path+"?"+dsnParams)
			if err != nil {
				t.Fatal(err)
			}
			old := &Store{db: db}
			if err := old.migrate(context.Background(), migrations[:v]); err != nil {
				t.Fatal(err)
			}
			db.Close()
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := schemaOf(t, s.db); got != want {
				t.Fatalf("migrated from v%d:\n%s\nfresh:\n%s", v, got, want)
			}
		})
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("err = %v, want a refusal of the newer schema", err)
	}
}

func TestStreamEventsKeepTheNewest(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for batch := 0; batch < 5; batch++ {
		var evs []StreamEvent
		for i := 1; i <= 10; i++ {
			id := int64(batch*10 + i)
			evs = append(evs, StreamEvent{ID: id, Type: "agent_event", TS: id, Data: []byte(fmt.Sprintf(`{"n":%d}`, id))})
		}
		if err := s.AppendStreamEvents(ctx, evs, 25); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.RecentStreamEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 25 || got[0].ID != 26 || got[24].ID != 50 {
		t.Fatalf("kept %d rows from %d to %d, want 25 from 26 to 50", len(got), got[0].ID, got[len(got)-1].ID)
	}
	last3, _ := s.RecentStreamEvents(ctx, 3)
	ids := []int64{last3[0].ID, last3[1].ID, last3[2].ID}
	if !reflect.DeepEqual(ids, []int64{48, 49, 50}) || string(last3[2].Data) != `{"n":50}` {
		t.Fatalf("recent 3 = %v %s", ids, last3[2].Data)
	}
}

// pluck maps xs through f (the ids of rows, say).
func pluck[T, V any](f func(T) V, xs []T) []V {
	out := make([]V, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
