package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

// Whatever is found at the database's path, or at SQLite's files beside it, instead of
// a regular file is refused before SQLite opens anything, at once, naming the path and
// what is there, and left as it is (SQLite would block on a FIFO at the journal,
// delete one at the write-ahead log, or fail with "disk I/O error"). A huge file of
// zeros is a regular file, but not a database.
func TestOpenRefusesOddFiles(t *testing.T) {
	const only = ", not a regular file: Wisp keeps its database only in regular files"
	cases := []struct {
		file string // beside an existing database when not wisp.db
		odd  rt.Odd
		want string // after the path
	}{
		{"wisp.db", rt.FIFO, " is a named pipe" + only},
		{"wisp.db", rt.Folder, " is a folder" + only},
		{"wisp.db", rt.Socket, " is a socket" + only},
		{"wisp.db", rt.DevZero, " is a device" + only},
		{"wisp.db", rt.Huge, ": look for FTS5: file is not a database"},
		{"wisp.db-wal", rt.FIFO, " is a named pipe" + only},
		{"wisp.db-wal", rt.Folder, " is a folder" + only},
		{"wisp.db-wal", rt.Socket, " is a socket" + only},
		{"wisp.db-wal", rt.DevZero, " is a symbolic link" + only},
		{"wisp.db-shm", rt.FIFO, " is a named pipe" + only},
		{"wisp.db-shm", rt.Folder, " is a folder" + only},
		{"wisp.db-journal", rt.FIFO, " is a named pipe" + only},
		{"wisp.db-journal", rt.DevZero, " is a symbolic link" + only},
	}
	for _, tc := range cases {
		t.Run(tc.file+" "+tc.odd.Name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "wisp.db")
			if tc.file != "wisp.db" {
				s, err := Open(context.Background(), db)
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
			}
			path := filepath.Join(dir, tc.file)
			tc.odd.Make(t, path)
			before, _ := os.Lstat(path)
			err := rt.ReturnsSoon(t, "Open", func() error {
				s, err := Open(context.Background(), db)
				if err == nil {
					s.Close()
				}
				return err
			})
			prefix := "open database: "
			if tc.odd.Name == rt.Huge.Name {
				prefix = "open database "
			}
			if want := prefix + path + tc.want; err == nil || err.Error() != want {
				t.Fatalf("err = %v\nwant   %s", err, want)
			}
			if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() {
				t.Fatalf("what was at %s changed: %v → %v (%v)", tc.file, before.Mode(), after, err)
			}
		})
	}
}

// A database kept elsewhere through a link is opened there, and SQLite's files are
// looked for beside it, where SQLite keeps them; a link to nothing is refused rather
// than a new, empty database made at its target (a disk not mounted).
func TestOpenFollowsALinkedDatabase(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "disk")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(elsewhere, "wisp.db")
	link := filepath.Join(dir, "wisp.db")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), link)
	if want := "open database: " + link + " is a symbolic link to nothing" + ", not a regular file: Wisp keeps its database only in regular files"; err == nil || err.Error() != want {
		t.Fatalf("a link to nothing: %v\nwant %s", err, want)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a database was made at the link's target: %v", err)
	}

	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rt.FIFO.Make(t, target+"-wal")
	_, err = Open(context.Background(), link)
	if want := "open database: " + target + "-wal is a named pipe"; err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Fatalf("a FIFO beside the link's target: %v, want %q…", err, want)
	}
}
