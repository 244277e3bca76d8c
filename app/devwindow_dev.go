//go:build dev

package app

import (
	"net"
	"os"
)

// devWindowOrigins are the origins of the page in the window `wails dev` opens. Wails serves
// it from its dev server (proxying the frontend's Vite server) at wails://wails.localhost:PORT
// (http://wails.localhost:PORT on Windows), PORT being that of $devserver, which the Wails
// CLI sets for the app; not from wails://wails. Only builds made by `wails dev` (build tag
// dev) accept them.
func devWindowOrigins() []string {
	_, port, err := net.SplitHostPort(os.Getenv("devserver"))
	if err != nil || port == "" {
		return nil
	}
	return []string{"wails://wails.localhost:" + port, "http://wails.localhost:" + port}
}
