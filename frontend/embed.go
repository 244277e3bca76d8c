// Package frontend embeds the built web UI (Vite's output in frontend/dist) so one
// binary serves it, in the browser and in the desktop window alike.
//
// dist/.keep is tracked so the embed compiles before the first frontend build; the UI
// then answers that it is not built.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built UI with index.html at its root.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a constant path inside the embed
	}
	return sub
}
