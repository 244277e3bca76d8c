package emotes

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rt "github.com/wispapp/wisp/internal/regular/regulartest"
)

// What is in the folder instead of a regular GLB file, the manifest included, is
// skipped at once with a reason that says what it is.
func TestUserFilesThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	rt.FIFO.Make(t, filepath.Join(dir, "fifo.glb"))
	rt.Socket.Make(t, filepath.Join(dir, "sock.glb"))
	rt.Folder.Make(t, filepath.Join(dir, "folder.glb"))
	rt.DevZero.Make(t, filepath.Join(dir, "zero.glb"))
	rt.Huge.Make(t, filepath.Join(dir, "huge.glb"))
	rt.FIFO.Make(t, filepath.Join(dir, ManifestFile))
	var skipped []Skipped
	rt.ReturnsSoon(t, "loadUser", func() error {
		_, skipped = loadUser(dir, DefaultMaxFile, isBuiltin)
		return nil
	})
	var got []string
	for _, s := range skipped {
		got = append(got, s.Entry+": "+s.Reason)
	}
	want := []string{
		"emotes.json: a named pipe, not a regular file",
		"fifo (fifo.glb): fifo.glb: a named pipe, not a regular file",
		"folder (folder.glb): folder.glb: a folder, not a regular file",
		"huge (huge.glb): huge.glb: larger than the 16 MiB limit",
		"sock (sock.glb): sock.glb: a socket, not a regular file",
		"zero (zero.glb): zero.glb: symbolic links are not followed",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
