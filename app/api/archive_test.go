package api

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/archive"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

func TestExportAndImportRefusals(t *testing.T) {
	s := serveAPI(t, "", Options{Archive: fakeArchive{
		exportConversation: func(_ context.Context, id string, _ archive.Format) (*archive.Export, error) {
			return nil, fault.NotFound.Errorf("conversation not found")
		},
	}})
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/api/conversations/nope/export", 404, "conversation not found"},
		{"GET", "/api/conversations/c1/export?format=pdf", 400, `unknown export format "pdf"`},
		{"GET", "/api/export?format=docx", 400, "unknown export format"},
		{"POST", "/api/import?format=claude", 400, "unknown import format"},
	} {
		got := s.call(tc.method, tc.path, "[]", nil)
		if got.status != tc.status || !strings.Contains(str(got.body["error"]), tc.want) {
			t.Errorf("%s %s: %d %v", tc.method, tc.path, got.status, got.body)
		}
	}
	// Not JSON at all: refused like any state-changing request.
	if got := s.call("POST", "/api/import", "[]", map[string]string{"Content-Type": "text/plain"}); got.status != 415 {
		t.Fatalf("text/plain: %d", got.status)
	}
}

func TestImportHandsOverTheFileAndItsFormat(t *testing.T) {
	var gotData string
	var gotSrc archive.Source
	s := serveAPI(t, "", Options{Archive: fakeArchive{
		importData: func(_ context.Context, data []byte, src archive.Source) (wire.ImportResult, error) {
			gotData, gotSrc = string(data), src
			return wire.ImportResult{Imported: 1}, nil
		},
	}})
	got := s.call("POST", "/api/import?format=chatgpt", `[{"mapping":{}}]`, nil)
	if got.status != 200 || got.body["imported"] != 1.0 {
		t.Fatalf("import: %d %v", got.status, got.body)
	}
	want, _ := archive.ParseSource("chatgpt")
	if gotData != `[{"mapping":{}}]` || gotSrc != want {
		t.Fatalf("the service got %q as %v", gotData, gotSrc)
	}
}

// repeat is an endless stream of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// An import may be bigger than any other request, up to its own cap.
func TestImportBodyCap(t *testing.T) {
	var size int
	s := serveAPI(t, "", Options{Archive: fakeArchive{
		importData: func(_ context.Context, data []byte, _ archive.Source) (wire.ImportResult, error) {
			size = len(data)
			return wire.ImportResult{Imported: 1}, nil
		},
	}})
	upload := func(body io.Reader, chunked bool) answer {
		r, _ := http.NewRequest("POST", s.url+"/api/import", body)
		r.Header.Set("Content-Type", "application/json")
		if chunked {
			r.ContentLength = -1
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a answer
		a.status = resp.StatusCode
		data, _ := io.ReadAll(resp.Body)
		a.body = decodeMap(data)
		return a
	}
	if got := upload(io.LimitReader(repeat(' '), 2*MaxBodyBytes), false); got.status != 200 || size != 2*MaxBodyBytes {
		t.Fatalf("a 2 MiB import: %d %v (%d bytes)", got.status, got.body, size)
	}
	// Beyond it: refused by its length, or while read when it has none.
	for _, chunked := range []bool{false, true} {
		got := upload(io.LimitReader(repeat(' '), ImportMaxBytes+1), chunked)
		if got.status != 413 || !strings.Contains(str(got.body["error"]), "larger than 67108864 bytes") {
			t.Fatalf("chunked %v: %d %v", chunked, got.status, got.body)
		}
	}
}

// A zip is told by its first bytes and handed over as it comes; the guard takes it
// as application/zip (or any type a cross-site form cannot send), and a form's or
// text/plain type only with X-Wisp-Upload: 1.
func TestImportZip(t *testing.T) {
	var got []string
	s := serveAPI(t, "", Options{Archive: fakeArchive{
		importZip: func(_ context.Context, r io.Reader, max int64, src archive.Source) (wire.ImportResult, error) {
			data, _ := io.ReadAll(r)
			got = append(got, string(data))
			if max != ImportZipMaxBytes || src != archive.Detect {
				t.Errorf("max %d, source %q", max, src)
			}
			return wire.ImportResult{Imported: 2}, nil
		},
		importData: func(context.Context, []byte, archive.Source) (wire.ImportResult, error) {
			t.Error("a zip was read as JSON")
			return wire.ImportResult{}, nil
		},
	}})
	const zip = "PK\x03\x04 the rest of the zip"
	for _, tc := range []struct {
		header map[string]string
		status int
	}{
		{map[string]string{"Content-Type": "application/zip"}, 200},
		{map[string]string{"Content-Type": "application/x-zip-compressed"}, 200},
		{map[string]string{"Content-Type": "application/octet-stream"}, 200},
		{map[string]string{"Content-Type": "text/plain"}, 415},
		{map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, 415},
		{map[string]string{"Content-Type": "text/plain", "X-Wisp-Upload": "1"}, 200},
		{map[string]string{"Content-Type": "application/zip", "X-Wisp-Upload": "1"}, 200},
	} {
		got = nil
		a := s.call("POST", "/api/import", zip, tc.header)
		if a.status != tc.status || (tc.status == 200 && (len(got) != 1 || got[0] != zip || a.body["imported"] != 2.0)) {
			t.Errorf("%v: %d %v, the service got %q", tc.header, a.status, a.body, got)
		}
	}
	// Another route keeps refusing what is not JSON.
	if a := s.call("POST", "/api/conversations", zip, map[string]string{"Content-Type": "application/zip", "X-Wisp-Upload": "1"}); a.status != 415 {
		t.Errorf("a zip elsewhere: %d", a.status)
	}
}
