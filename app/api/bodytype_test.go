package api

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Every state-changing request carries JSON or nothing: a form or text/plain request,
// which a browser sends to another site without asking it first, is refused even
// when it is empty, before its handler runs.
func TestStateChangingRequestsTakeOnlyJSON(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, method, path, body string
		types                    []string // Content-Type headers sent
		want                     int
	}{
		{"empty form POST", "POST", "/api/agent/event", "", []string{"application/x-www-form-urlencoded"}, 415},
		{"empty text/plain POST", "POST", "/api/agent/event", "", []string{"text/plain"}, 415},
		{"empty multipart POST", "POST", "/api/agent/event", "", []string{"multipart/form-data; boundary=x"}, 415},
		{"empty form PUT", "PUT", "/api/agent/event", "", []string{"application/x-www-form-urlencoded"}, 415},
		{"empty form PATCH", "PATCH", "/api/agent/event", "", []string{"application/x-www-form-urlencoded"}, 415},
		{"empty text/plain DELETE", "DELETE", "/api/agent/event", "", []string{"text/plain"}, 415},
		{"empty Content-Type header", "POST", "/api/agent/event", "", []string{""}, 415},
		{"JSON and text/plain", "POST", "/api/agent/event", `{}`, []string{"application/json", "text/plain"}, 415},
		{"a body without a type", "POST", "/api/agent/event", `{}`, nil, 415},
		{"JSON look-alike", "POST", "/api/agent/event", `{}`, []string{"application/json-seq"}, 415},
		// Allowed through to the handler, which then wants its body (400).
		{"no body and no type", "POST", "/api/agent/event", "", nil, 400},
		{"empty JSON", "POST", "/api/agent/event", "", []string{"application/json"}, 400},
		{"JSON with a charset", "POST", "/api/agent/event", `{"stream":"x","payload":{}}`, []string{"Application/JSON; charset=utf-8"}, 400},
		{"a GET of any type", "GET", "/api/status", "", []string{"text/plain"}, 200},
	}
	for _, tc := range cases {
		r, err := http.NewRequest(tc.method, e.srv.URL+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		for _, ct := range tc.types {
			r.Header.Add("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, data, tc.want)
			continue
		}
		if tc.want == 415 && (!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
			!strings.Contains(string(data), `"error":"request body must be application/json"`)) {
			t.Errorf("%s: %s %s, want a JSON error", tc.name, resp.Header.Get("Content-Type"), data)
		}
	}
}
