package app

import (
	"archive/zip"
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// A .zip export (conversations.json and the attachments beside it) comes back through
// POST /api/import as application/zip into a fresh Wisp, the same history.
func TestExportImportZipThroughTheAPI(t *testing.T) {
	src := startChat(t, t.TempDir())
	conv := src.newConversation()
	var sent struct{ Text string }
	if code := src.call("POST", "/api/conversations/"+conv+"/messages", map[string]any{"text": "hello there"}, &sent); code != 200 {
		t.Fatalf("send: %d", code)
	}
	code, h, data := src.download("/api/conversations/" + conv + "/export?format=zip")
	if code != 200 || h.Get("Content-Type") != "application/zip" || !strings.HasSuffix(h.Get("Content-Disposition"), ".zip") {
		t.Fatalf("export: %d %v", code, h)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || len(zr.File) != 1 || zr.File[0].Name != "conversations.json" {
		t.Fatalf("zip: %v %v", err, zr)
	}
	_, _, doc := src.download("/api/conversations/" + conv + "/export?format=json")

	dst := startChat(t, t.TempDir())
	req, _ := http.NewRequest("POST", dst.URL()+"/api/import", bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/zip")
	var res importAnswer
	if code := dst.roundTrip(req, &res); code != 200 || res.Imported != 1 || res.Conversations[0] != conv {
		t.Fatalf("import: %d %+v", code, res)
	}
	_, _, again := dst.download("/api/conversations/" + conv + "/export?format=json")
	if exportedAtLine.ReplaceAllString(string(again), "") != exportedAtLine.ReplaceAllString(string(doc), "") {
		t.Fatalf("the import differs\n%s\n%s", doc, again)
	}
	// text/plain is what a page of another site can send: refused without X-Wisp-Upload.
	req, _ = http.NewRequest("POST", dst.URL()+"/api/import", bytes.NewReader(data))
	req.Header.Set("Content-Type", "text/plain")
	if code := dst.roundTrip(req, nil); code != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain: %d", code)
	}
}
