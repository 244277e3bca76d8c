package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Load, at start, removes the temporary files a save killed before its rename left
// beside the config file, but not one a live save (in this process or another Wisp's
// sharing the file) still holds, nor anything else.
func TestLoadRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wisp.json")
	write(t, path, `{"character":{"name":"Kept"}}`)
	stale := filepath.Join(dir, ".wisp.json.tmp-123")
	write(t, stale, `{"character":{"name":"half`)
	live := filepath.Join(dir, ".wisp.json.tmp-456")
	write(t, live, `{"character":{"name":"being written`)
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	others := []string{".other.json.tmp-1", "wisp.json.tmp-1", ".wisp.json-1", "notes.txt"}
	for _, name := range others {
		write(t, filepath.Join(dir, name), "x")
	}

	file, err := Load(path)
	if err != nil || file.Config.Character.Name != "Kept" {
		t.Fatalf("load: %v", err)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	for _, name := range append(others, filepath.Base(live)) {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}
