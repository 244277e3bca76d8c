//go:build desktop && !headless

package desktop

import (
	"context"
	"time"
)

// saveExportTimeout bounds how long the window waits for an export to be written.
const saveExportTimeout = 10 * time.Minute

// SaveExport saves the export of one conversation (of all of them when
// conversationID is "") as format (json or md) into the user's downloads folder and
// returns the file's path: the window has no download manager (see app/downloads.go).
// The page calls it as window.go.desktop.Desktop.SaveExport.
func (d *Desktop) SaveExport(conversationID, format string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), saveExportTimeout)
	defer cancel()
	return d.app.SaveExport(ctx, conversationID, format)
}
