package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wispapp/wisp/app/archive"
)

// The desktop window (WebKitGTK under Wails v2) has no download manager: a page's
// download goes nowhere. So the window asks Wisp to save an export itself
// (Desktop.SaveExport): it is streamed from the database into the user's downloads
// folder, as a browser would have saved it, and the window says where.

// SaveExport writes the export of one conversation (or of all of them when
// conversationID is "") in format (json or md) into the downloads folder, under a
// name no file there has yet, and returns the file's path.
func (a *App) SaveExport(ctx context.Context, conversationID, format string) (string, error) {
	return a.saveExportIn(ctx, downloadsDir(a.opts.Getenv), conversationID, format)
}

func (a *App) saveExportIn(ctx context.Context, dir, conversationID, format string) (string, error) {
	f, err := archive.ParseFormat(format)
	if err != nil {
		return "", err
	}
	var ex *archive.Export
	if conversationID == "" {
		ex, err = a.core.archive.ExportAll(ctx, f)
	} else {
		ex, err = a.core.archive.ExportConversation(ctx, conversationID, f)
	}
	if err != nil {
		return "", err
	}
	path, err := writeExportFile(ctx, dir, ex)
	if err != nil {
		a.log.Error("save export", "err", err)
		return "", err
	}
	a.log.Info("export saved", "path", path)
	return path, nil
}

// writeExportFile writes ex into dir as a new private file: its own name, or with
// " (2)", " (3)"... before the extension when that is taken. A failed write leaves
// no file behind.
func writeExportFile(ctx context.Context, dir string, ex *archive.Export) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create the downloads folder: %w", err)
	}
	file, path, err := createNew(dir, ex.Filename)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(file)
	err = ex.WriteTo(ctx, w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return path, nil
}

// createNew creates the first free name of name's numbered variants in dir.
func createNew(dir, name string) (*os.File, string, error) {
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 1; i <= 1000; i++ {
		candidate := name
		if i > 1 {
			candidate = fmt.Sprintf("%s (%d)%s", base, i, ext)
		}
		path := filepath.Join(dir, candidate)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", fmt.Errorf("create %s: %w", path, err)
		}
	}
	return nil, "", fmt.Errorf("%s: too many files of that name already", filepath.Join(dir, name))
}

// downloadsDir is the user's downloads folder: XDG_DOWNLOAD_DIR (from the
// environment or the user-dirs.dirs file xdg-user-dirs keeps), else ~/Downloads.
func downloadsDir(getenv func(string) string) string {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if dir := expandHome(getenv("XDG_DOWNLOAD_DIR"), home); filepath.IsAbs(dir) {
		return dir
	}
	config := getenv("XDG_CONFIG_HOME")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	if dir := userDirsDownload(filepath.Join(config, "user-dirs.dirs"), home); dir != "" {
		return dir
	}
	return filepath.Join(home, "Downloads")
}

// userDirsDownload reads XDG_DOWNLOAD_DIR="$HOME/..." from a user-dirs.dirs file; ""
// when it has none.
func userDirsDownload(path, home string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 64<<10 {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		value, ok := strings.CutPrefix(strings.TrimSpace(line), "XDG_DOWNLOAD_DIR=")
		if !ok {
			continue
		}
		dir := expandHome(strings.Trim(value, `"`), home)
		if filepath.IsAbs(dir) && filepath.Clean(dir) != filepath.Clean(home) {
			return dir // (a folder set to $HOME itself means "none" to xdg-user-dirs)
		}
	}
	return ""
}

func expandHome(dir, home string) string {
	if rest, ok := strings.CutPrefix(dir, "$HOME"); ok {
		return home + rest
	}
	return dir
}

// SaveAttachment copies an attachment's bytes into the downloads folder under its
// (cleaned) name, or a numbered variant of it, and returns the file's path: the
// desktop window's way to download a file of a message.
func (a *App) SaveAttachment(ctx context.Context, id string) (string, error) {
	return a.saveAttachmentIn(ctx, downloadsDir(a.opts.Getenv), id)
}

func (a *App) saveAttachmentIn(ctx context.Context, dir, id string) (string, error) {
	at, err := a.core.attach.Get(ctx, id)
	if err != nil {
		return "", err
	}
	src, err := a.core.attach.Open(ctx, at)
	if err != nil {
		return "", err
	}
	defer src.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create the downloads folder: %w", err)
	}
	dst, path, err := createNew(dir, at.Name)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	a.log.Info("attachment saved", "path", path)
	return path, nil
}
