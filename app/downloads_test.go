package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

func TestDownloadsDir(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, "cfg")
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	if got := downloadsDir(env(map[string]string{"HOME": home})); got != filepath.Join(home, "Downloads") {
		t.Errorf("default: %s", got)
	}
	if got := downloadsDir(env(map[string]string{"HOME": home, "XDG_DOWNLOAD_DIR": "$HOME/dl"})); got != filepath.Join(home, "dl") {
		t.Errorf("from the environment: %s", got)
	}
	if err := os.MkdirAll(config, 0o700); err != nil {
		t.Fatal(err)
	}
	dirs := "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOWNLOAD_DIR=\"$HOME/Téléchargements\"\n"
	if err := os.WriteFile(filepath.Join(config, "user-dirs.dirs"), []byte(dirs), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := downloadsDir(env(map[string]string{"HOME": home, "XDG_CONFIG_HOME": config})); got != filepath.Join(home, "Téléchargements") {
		t.Errorf("from user-dirs.dirs: %s", got)
	}
	// Set to the home folder itself: xdg-user-dirs' way of saying there is none.
	if err := os.WriteFile(filepath.Join(config, "user-dirs.dirs"), []byte(`XDG_DOWNLOAD_DIR="$HOME/"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := downloadsDir(env(map[string]string{"HOME": home, "XDG_CONFIG_HOME": config})); got != filepath.Join(home, "Downloads") {
		t.Errorf("disabled in user-dirs.dirs: %s", got)
	}
}

func TestSaveExportIntoTheDownloadsFolder(t *testing.T) {
	c := startChat(t, t.TempDir())
	conv := c.newConversation()
	if code := c.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": "keep this"}, nil); code != 200 {
		t.Fatalf("send: %d", code)
	}
	dir := filepath.Join(t.TempDir(), "Downloads") // made on the first save
	ctx := context.Background()
	first, err := c.saveExportIn(ctx, dir, conv, "json")
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.saveExportIn(ctx, dir, conv, "json")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(first) != dir || !strings.HasPrefix(filepath.Base(first), "wisp-new-chat-") ||
		second != strings.TrimSuffix(first, ".json")+" (2).json" {
		t.Fatalf("saved as %s, then %s", first, second)
	}
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Format        string
		Conversations []struct{ ID string }
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Format != "wisp-export" || len(doc.Conversations) != 1 || doc.Conversations[0].ID != conv {
		t.Fatalf("%v\n%s", err, data)
	}
	if info, err := os.Stat(first); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", info.Mode(), err)
	}
	all, err := c.saveExportIn(ctx, dir, "", "md")
	if md, _ := os.ReadFile(all); err != nil || !strings.HasPrefix(string(md), "# Wisp conversations\n") || !strings.Contains(string(md), "keep this") {
		t.Fatalf("all as Markdown at %s: %v\n%s", all, err, md)
	}
	// Nothing is left behind by a refused export.
	if _, err := c.saveExportIn(ctx, dir, "nope", "json"); !fault.Is(err, fault.NotFound) {
		t.Fatalf("missing conversation: %v", err)
	}
	if _, err := c.saveExportIn(ctx, dir, conv, "pdf"); !fault.Is(err, fault.Invalid) {
		t.Fatalf("bad format: %v", err)
	}
	ex, err := c.core.archive.ExportConversation(ctx, conv, "json")
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := writeExportFile(cancelled, dir, ex); err == nil {
		t.Fatal("a cut export was saved")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Fatalf("%d files in the downloads folder", len(entries))
	}
}

// The window saves an attachment into the downloads folder under its cleaned name,
// numbered when the name is taken; an unknown one saves nothing.
func TestSaveAttachmentIntoTheDownloadsFolder(t *testing.T) {
	c := startChat(t, t.TempDir())
	data := []byte("a,b\n1,2\n")
	att := c.attachFile("../../evil\u202e.csv", "text/csv", data)
	dir := filepath.Join(t.TempDir(), "Downloads")
	ctx := context.Background()
	first, err := c.saveAttachmentIn(ctx, dir, att.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.saveAttachmentIn(ctx, dir, att.ID)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(first) != dir || filepath.Base(first) != att.Name || second != strings.TrimSuffix(first, ".csv")+" (2).csv" {
		t.Fatalf("saved as %s, then %s (name %q)", first, second, att.Name)
	}
	if got, err := os.ReadFile(second); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("saved %q, %v", got, err)
	}
	if _, err := c.saveAttachmentIn(ctx, dir, "nope"); !fault.Is(err, fault.NotFound) {
		t.Fatalf("unknown attachment: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("%d files in the folder", len(entries))
	}
}
