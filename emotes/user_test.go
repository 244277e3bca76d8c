package emotes

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// clip is a real GLB clip to put in user packs.
func clip(t *testing.T) []byte {
	t.Helper()
	a, err := openEmbedded("jump.glb")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(a)
	return data
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func TestUserPack(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "emotes")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	good := clip(t)
	write(t, filepath.Join(dir, "bow.glb"), good)
	write(t, filepath.Join(dir, "Salute Now.glb"), good)
	write(t, filepath.Join(dir, "big.glb"), append(slices.Clone(good), make([]byte, 4096)...))
	write(t, filepath.Join(dir, "text.glb"), []byte("version https://git-lfs.github.com/spec/v1\n"))
	write(t, filepath.Join(state, "secret.glb"), good)
	if err := os.Symlink(filepath.Join(state, "secret.glb"), filepath.Join(dir, "link.glb")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.glb"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ManifestFile), []byte(`{"emotes": [
		{"id": "bow", "name": "Deep bow", "file": "bow.glb", "category": "Greeting", "duration": 2.25, "loop": true},
		{"id": "wave", "file": "bow.glb"},
		{"id": "bow", "file": "bow.glb"},
		{"id": "up", "file": "../secret.glb"},
		{"id": "abs", "file": "`+filepath.Join(state, "secret.glb")+`"},
		{"id": "sub", "file": "x/bow.glb"},
		{"id": "link", "file": "link.glb"},
		{"id": "fifo", "file": "fifo.glb"},
		{"id": "text", "file": "text.glb"},
		{"id": "big", "file": "big.glb"},
		{"id": "missing", "file": "missing.glb"},
		{"id": "Bad Id", "file": "bow.glb"},
		{"id": "json", "file": "emotes.json"},
		{"id": "long", "file": "bow.glb", "duration": 9999}
	]}`))
	c := New(Options{Dir: dir, MaxFile: int64(len(good) + 100), Logger: quiet()})
	var user []Emote
	for _, e := range c.List() {
		if e.Source == SourceUser {
			user = append(user, e)
		}
	}
	ids := []string{}
	for _, e := range user {
		ids = append(ids, e.ID)
	}
	if !slices.Equal(ids, []string{"bow", "salute-now"}) {
		t.Fatalf("user emotes %v, want bow and salute-now (every other entry is bad)", ids)
	}
	bow := user[0]
	if bow.Name != "Deep bow" || bow.Category != "greeting" || bow.Duration != 2.25 || !bow.Loop || bow.GLBPath != "/emotes/bow.glb" {
		t.Errorf("bow = %+v", bow)
	}
	salute := user[1]
	if salute.Name != "Salute now" || salute.Category != "custom" || salute.Duration != 1.5 {
		t.Errorf("an unlisted file: %+v (the duration comes from the clip)", salute)
	}
	if w, _ := c.Get("wave"); w.Source != SourceBuiltin {
		t.Error("a user pack replaced a built-in emote")
	}
	a, err := c.Open("bow")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(a)
	a.Close()
	if !slices.Equal(got, good) || a.ETag == "" || a.Builtin {
		t.Errorf("Open(bow): %d bytes, etag %q", len(got), a.ETag)
	}

	// swapped for a symbolic link after the catalog was read: refused when served
	if err := os.Remove(filepath.Join(dir, "bow.glb")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(state, "secret.glb"), filepath.Join(dir, "bow.glb")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open("bow"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a swapped-in symlink was served: %v", err)
	}
}

func TestUserFolderRefused(t *testing.T) {
	state := t.TempDir()
	real := filepath.Join(state, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(real, "bow.glb"), clip(t))
	link := filepath.Join(state, "emotes")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	user, skipped := loadUser(link, DefaultMaxFile, isBuiltin)
	if len(user) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, "symbolic link") {
		t.Errorf("symlinked folder: %v %v", user, skipped)
	}
	user, skipped = loadUser(filepath.Join(state, "none"), DefaultMaxFile, isBuiltin)
	if len(user)+len(skipped) != 0 {
		t.Errorf("missing folder: %v %v", user, skipped)
	}
	// a broken manifest is reported, and the folder's files still count
	write(t, filepath.Join(real, ManifestFile), []byte(`{"emotes": [`))
	user, skipped = loadUser(real, DefaultMaxFile, isBuiltin)
	if len(user) != 1 || len(skipped) != 1 || skipped[0].Entry != ManifestFile {
		t.Errorf("broken manifest: %v %v", user, skipped)
	}
}

func TestCheckFileName(t *testing.T) {
	for name, ok := range map[string]bool{
		"bow.glb": true, "BOW.GLB": true, "": false, "..": false, "../bow.glb": false, "a/b.glb": false,
		`a\b.glb`: false, "/etc/passwd": false, ".hidden.glb": false, "bow.gltf": false, "bow.glb\x00.png": false,
	} {
		if err := checkFileName(name); (err == nil) != ok {
			t.Errorf("checkFileName(%q) = %v", name, err)
		}
	}
}

// A pack dropped into the folder while Wisp runs joins the catalog; removing it takes
// it out again.
func TestWatchPicksUpPacks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "emotes")
	changes := make(chan struct{}, 16)
	c := New(Options{Dir: dir, Logger: quiet(), Debounce: 20 * time.Millisecond, OnChange: func() { changes <- struct{}{} }})
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("Watch did not create the folder: %v", err)
	}
	has := func(id string) bool { _, ok := c.Get(id); return ok }
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for !cond() {
			select {
			case <-changes:
			case <-deadline:
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	// written the way a browser download lands: a temporary name, then a rename
	write(t, filepath.Join(dir, ".bow.glb.part"), clip(t))
	if err := os.Rename(filepath.Join(dir, ".bow.glb.part"), filepath.Join(dir, "bow.glb")); err != nil {
		t.Fatal(err)
	}
	waitFor("bow to appear", func() bool { return has("bow") })
	write(t, filepath.Join(dir, ManifestFile), []byte(`{"emotes":[{"id":"bow","file":"bow.glb","name":"Bow","category":"greeting"}]}`))
	waitFor("the manifest to apply", func() bool { e, _ := c.Get("bow"); return e.Name == "Bow" })
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	waitFor("bow to go", func() bool { return !has("bow") })
	// the folder made again is followed again
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "again.glb"), clip(t))
	waitFor("again to appear", func() bool { return has("again") })
}
