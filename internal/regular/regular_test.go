package regular_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/regular"
	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

// Whatever is at the path instead of a regular file is refused at once, by what it
// is, whether links are followed or not.
func TestReadFileRefusesOddFiles(t *testing.T) {
	cases := []struct {
		odd   rt.Odd
		links regular.Links
		want  string
	}{
		{rt.FIFO, regular.Follow, "is a named pipe, not a regular file"},
		{rt.FIFO, regular.NoFollow, "is a named pipe, not a regular file"},
		{rt.Folder, regular.Follow, "is a folder, not a regular file"},
		{rt.Socket, regular.Follow, "is a socket, not a regular file"},
		{rt.Socket, regular.NoFollow, "is a socket, not a regular file"},
		{rt.DevZero, regular.Follow, "is a device, not a regular file"},
		{rt.DevZero, regular.NoFollow, "is a symbolic link, not a regular file"},
		{rt.Huge, regular.Follow, "is larger than 1 KiB"},
	}
	for _, tc := range cases {
		name := tc.odd.Name
		if tc.links == regular.NoFollow {
			name += ", no links"
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "file")
			tc.odd.Make(t, path)
			err := rt.ReturnsSoon(t, "ReadFile", func() error {
				_, err := regular.ReadFile(path, 1<<10, tc.links)
				return err
			})
			if err == nil || err.Error() != path+" "+tc.want {
				t.Fatalf("err = %v, want %q", err, path+" "+tc.want)
			}
			var nr *regular.NotRegularError
			var tl *regular.TooLargeError
			if !errors.As(err, &nr) && !errors.As(err, &tl) {
				t.Fatalf("err is a %T", err)
			}
		})
	}
}

// A regular file up to the limit is read, through a link when links are followed.
func TestReadFileTakesARegularFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "file")
	content := strings.Repeat("x", 1<<10)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := regular.ReadFile(path, 1<<10, regular.NoFollow); err != nil || string(data) != content {
		t.Fatalf("a file of exactly the limit: %d bytes, %v", len(data), err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if data, err := regular.ReadFile(link, 1<<10, regular.Follow); err != nil || string(data) != content {
		t.Fatalf("through a link: %d bytes, %v", len(data), err)
	}
	if _, err := regular.ReadFile(filepath.Join(dir, "missing"), 1, regular.Follow); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// Open makes a missing file, but never through a link to nothing; Check looks without
// opening.
func TestOpenAndCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new")
	f, err := regular.Open(path, os.O_RDWR|os.O_CREATE, 0o600, regular.NoFollow)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if st, err := os.Stat(path); err != nil || st.Mode() != 0o600 {
		t.Fatalf("made %v, %v", st, err)
	}
	if err := regular.Check(path, regular.NoFollow); err != nil {
		t.Fatalf("check a regular file: %v", err)
	}

	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	_, err = regular.Open(dangling, os.O_RDWR|os.O_CREATE, 0o600, regular.Follow)
	if want := dangling + " is a symbolic link to nothing, not a regular file"; err == nil || err.Error() != want {
		t.Fatalf("create through a link to nothing: %v, want %q", err, want)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the link's target was made: %v", err)
	}
	_, err = regular.Open(dangling, os.O_RDWR|os.O_CREATE, 0o600, regular.NoFollow)
	if want := dangling + " is a symbolic link, not a regular file"; err == nil || err.Error() != want {
		t.Fatalf("create at a link, no links: %v, want %q", err, want)
	}

	fifo := filepath.Join(dir, "fifo")
	rt.FIFO.Make(t, fifo)
	if err := regular.Check(fifo, regular.Follow); err == nil || err.Error() != fifo+" is a named pipe, not a regular file" {
		t.Fatalf("check a FIFO: %v", err)
	}
	if err := regular.Check(filepath.Join(dir, "missing"), regular.NoFollow); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("check nothing: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 64 << 10: "64 KiB", 1 << 10: "1 KiB", 1500: "1500 bytes", 0: "0 bytes"} {
		if got := regular.Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
