package app

import (
	"net/http"
	"testing"
)

// TestWebviewOriginsOnlyOnTheDesktop: the Wails window's origins are Wisp's own only
// where that window exists; under `wisp serve` a page claiming them is foreign.
func TestWebviewOriginsOnlyOnTheDesktop(t *testing.T) {
	for _, desktop := range []bool{false, true} {
		opts := testOptions(t, t.TempDir(), nil)
		opts.Desktop = desktop
		a := startApp(t, opts)
		for _, origin := range []string{"wails://wails", "http://wails.localhost"} {
			r, _ := http.NewRequest("GET", a.URL()+"/api/status", nil)
			r.Header.Set("Origin", origin)
			if own := ownTokenOf(a); own != "" {
				r.Header.Set("Authorization", "Bearer "+own)
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := http.StatusForbidden
			if desktop {
				want = http.StatusOK
			}
			if resp.StatusCode != want {
				t.Errorf("desktop %v, Origin %s: %d, want %d", desktop, origin, resp.StatusCode, want)
			}
		}
		if err := a.Stop(); err != nil {
			t.Fatal(err)
		}
	}
}
