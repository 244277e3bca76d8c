//go:build desktop && !headless

package desktop

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/wispapp/wisp/app/wire"
)

// attachTimeout bounds how long one chosen file may take to be stored.
const attachTimeout = 5 * time.Minute

// PickFiles opens the system's file dialog and attaches the files chosen, under the
// same limits as an upload (App.AttachFile); nothing chosen answers none. The page
// calls it as window.go.desktop.Desktop.PickFiles.
func (d *Desktop) PickFiles() ([]wire.Attachment, error) {
	wctx := d.win.ctx.Load()
	if wctx == nil {
		return nil, errors.New("the window is not ready yet")
	}
	paths, err := wailsruntime.OpenMultipleFilesDialog(*wctx, wailsruntime.OpenDialogOptions{Title: "Attach files"})
	if err != nil {
		return nil, fmt.Errorf("the file dialog: %w", err)
	}
	out := make([]wire.Attachment, 0, len(paths))
	for _, p := range paths {
		ctx, cancel := context.WithTimeout(context.Background(), attachTimeout)
		a, err := d.app.AttachFile(ctx, p)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(p), err)
		}
		out = append(out, a)
	}
	return out, nil
}

// SaveAttachment saves an attachment into the user's downloads folder and returns
// the file's path: the window has no download manager (see app/downloads.go).
func (d *Desktop) SaveAttachment(id string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), saveExportTimeout)
	defer cancel()
	return d.app.SaveAttachment(ctx, id)
}
