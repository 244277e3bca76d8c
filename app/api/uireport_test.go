package api

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a log sink the handler's goroutines write to while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// The page's reports land in Wisp's log as one quoted line each; a report that is not
// a plain event name is refused, a long detail is cut, and the route wants the token.
func TestUIReportIsLoggedBounded(t *testing.T) {
	var logs syncBuffer
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	defer srv.Close()
	port, _ := strconv.Atoi(srv.URL[strings.LastIndex(srv.URL, ":")+1:])
	handler = New(Options{Guard: NewGuard(GuardOptions{Port: port, BindHost: "127.0.0.1", Tokens: []string{"tok"}}),
		Hub: fakeHub{}, Logger: slog.New(slog.NewTextHandler(&logs, nil))}).Handler()
	s := &served{t: t, url: srv.URL, token: "tok"}

	long := strings.Repeat("é", 400)
	for _, tc := range []struct {
		body   string
		status int
		logged string
	}{
		{`{"event":"speech-played","detail":"3 clauses"}`, 200, `msg="ui report" event=speech-played detail="3 clauses"`},
		{`{"event":"speech-failed","detail":"line one\nfake=entry"}`, 200, `detail="line one\nfake=entry"`},
		{`{"event":"speech-failed","detail":"` + long + `"}`, 200, `detail=` + strings.Repeat("é", 150) + `…`},
		{`{"event":"Speech Played"}`, 400, ""},
		{`{"event":""}`, 400, ""},
		{`{"event":"` + strings.Repeat("a", 65) + `"}`, 400, ""},
	} {
		got := s.call("POST", "/api/ui/report", tc.body, nil)
		if got.status != tc.status {
			t.Errorf("%s: %d %v, want %d", tc.body, got.status, got.body, tc.status)
		}
		if tc.logged != "" && !strings.Contains(logs.String(), tc.logged) {
			t.Errorf("%s: the log lacks %s:\n%s", tc.body, tc.logged, logs.String())
		}
	}
	if strings.Contains(logs.String(), "\nfake=entry") {
		t.Errorf("a detail wrote a log line of its own:\n%s", logs.String())
	}
	if got := s.call("POST", "/api/ui/report", `{"event":"x"}`, map[string]string{"Authorization": ""}); got.status != 401 {
		t.Errorf("without the token: %d", got.status)
	}
}
