package benchkit

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPostJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Header.Get("Content-Type") != "application/json":
			http.Error(w, "not JSON", http.StatusUnsupportedMediaType)
		case string(body) != `{"emoteId":"wave"}`:
			http.Error(w, "body "+string(body), http.StatusBadRequest)
		default:
			_, _ = io.WriteString(w, `{"ok":true}`)
		}
	}))
	defer srv.Close()
	c := NewHTTPClient()
	var out struct{ OK bool }
	if err := PostJSON(context.Background(), c, srv.URL, map[string]string{"emoteId": "wave"}, &out); err != nil || !out.OK {
		t.Fatalf("PostJSON = %v, ok %v", err, out.OK)
	}
	err := PostJSON(context.Background(), c, srv.URL, map[string]string{"emoteId": "bow"}, &out)
	if err == nil || !strings.Contains(err.Error(), "status 400: body {\"emoteId\":\"bow\"}") {
		t.Fatalf("PostJSON with a 400 answer: err = %v", err)
	}
}
