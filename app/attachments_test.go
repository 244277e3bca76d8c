package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"

	"github.com/wispapp/wisp/internal/fault"
)

// requestLog hands over the status of each API request once its handler is done.
type requestLog struct{ done chan string } // (buffered: the tests send fewer than its room)

func (l requestLog) Enabled(context.Context, slog.Level) bool { return true }
func (l requestLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l requestLog) WithGroup(string) slog.Handler            { return l }
func (l requestLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "http request" {
		return nil
	}
	var path string
	var status int64
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "path":
			path = a.Value.String()
		case "status":
			status = a.Value.Int64()
		}
		return true
	})
	if strings.HasPrefix(path, "/api/attachments") {
		l.done <- fmt.Sprintf("%s %d", path, status)
	}
	return nil
}

type attachApp struct {
	*App
	t     *testing.T
	token string
	log   requestLog
	seen  map[string]int // the requests logged, by path and status
}

// startAttachApp runs Wisp with a token and a 1 MiB file limit.
func startAttachApp(t *testing.T) *attachApp {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wisp.json"), []byte(`{"attachments": {"fileMiB": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t, dir, nil)
	opts.KeepToken = true
	log := requestLog{done: make(chan string, 64)}
	opts.Logger = slog.New(log)
	a := startApp(t, opts)
	t.Cleanup(func() { a.Stop() })
	return &attachApp{App: a, t: t, token: ownTokenOf(a), log: log, seen: map[string]int{}}
}

type attachAnswer struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with the token (unless header sets Authorization to "") and
// header's fields.
func (a *attachApp) do(method, path string, body io.Reader, header map[string]string) attachAnswer {
	a.t.Helper()
	r, _ := http.NewRequest(method, a.URL()+path, body)
	r.Header.Set("Authorization", "Bearer "+a.token)
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return attachAnswer{resp.StatusCode, resp.Header, data}
}

func (a *attachApp) upload(name, ctype string, data []byte) (int, map[string]any) {
	a.t.Helper()
	got := a.do("POST", "/api/attachments?name="+name, bytes.NewReader(data), map[string]string{"Content-Type": ctype, "X-Wisp-Upload": "1"})
	var m map[string]any
	json.Unmarshal(got.body, &m)
	return got.status, m
}

// stored lists the files of the attachments folder but the cache.
func (a *attachApp) stored() []string {
	a.t.Helper()
	var out []string
	root := filepath.Join(a.stateDir, attachmentsDir)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, "/derived/") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	return out
}

func smallPNG(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 64, 48))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAttachmentsThroughHTTP(t *testing.T) {
	a := startAttachApp(t)
	pic := smallPNG(t)
	status, m := a.upload("shot.png", "image/png", pic)
	att, _ := m["attachment"].(map[string]any)
	if status != 201 || att["kind"] != "image" || att["width"] != 64.0 || att["name"] != "shot.png" {
		t.Fatalf("upload: %d %v", status, m)
	}
	if status, _ := a.upload("same.png", "image/png", pic); status != 201 || len(a.stored()) != 1 {
		t.Errorf("the same bytes again: %d, files %v", status, a.stored())
	}
	got := a.do("GET", "/api/attachments/"+att["id"].(string), nil, nil)
	if got.status != 200 || !bytes.Equal(got.body, pic) || got.header.Get("Content-Disposition") != "inline; filename*=UTF-8''shot.png" ||
		got.header.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("get: %d %v", got.status, got.header)
	}
	got = a.do("GET", "/api/attachments/"+att["id"].(string)+"/thumbnail", nil, nil)
	if got.status != 200 || got.header.Get("Content-Type") != "image/png" {
		t.Errorf("thumbnail: %d %v", got.status, got.header)
	}
}

// The hostile files and requests, through Wisp's own server: each refused or
// handled within its bounds, nothing partial stored, and Wisp still answering.
func TestHostileUploads(t *testing.T) {
	a := startAttachApp(t)
	// An image that decompresses to gigabytes.
	status, m := a.upload("bomb.png", "image/png", bombPNG(t))
	if status != 413 || m["error"] != "the image is 40000×40000 pixels; Wisp reads at most 50 megapixels" {
		t.Errorf("a bomb: %d %v", status, m)
	}
	// A file lying about its type: HTML named .png, declared image/png.
	status, m = a.upload("cat.png", "image/png", []byte("<!doctype html><script>alert(document.cookie)</script>"))
	att, _ := m["attachment"].(map[string]any)
	if status != 201 || att["kind"] != "text" || att["mime"] != "text/html; charset=utf-8" {
		t.Fatalf("HTML as PNG: %d %v", status, m)
	}
	got := a.do("GET", "/api/attachments/"+att["id"].(string), nil, nil)
	if !strings.HasPrefix(got.header.Get("Content-Disposition"), "attachment;") || got.header.Get("Content-Security-Policy") != "sandbox" ||
		got.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("HTML served: %v", got.header)
	}
	// Names with ../, NUL and bidi characters.
	status, m = a.upload("..%2F..%2Fetc%2Fpasswd%00%E2%80%AEgpj.exe", "application/octet-stream", []byte{1, 2, 3})
	if att, _ := m["attachment"].(map[string]any); status != 201 || att["name"] != "passwdgpj.exe" {
		t.Errorf("a hostile name: %d %v", status, m)
	}
	// An upload cut mid-body: half of what it announced, then the connection closes.
	a.cutUpload(1<<20, 300<<10)
	a.waitFor("/api/attachments 400", 1) // its handler is done
	// A body over the limit without a Content-Length (chunked).
	pr, pw := io.Pipe()
	go func() {
		chunk := make([]byte, 64<<10)
		for i := 0; i < 64; i++ { // 4 MiB, over the 1 MiB limit
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		pw.Close()
	}()
	r, _ := http.NewRequest("POST", a.URL()+"/api/attachments?name=big", pr)
	r.Header.Set("Authorization", "Bearer "+a.token)
	r.Header.Set("Content-Type", "application/octet-stream")
	if resp, err := http.DefaultClient.Do(r); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !strings.Contains(string(body), "the limit for one attachment") {
			t.Errorf("chunked over the limit: %d %s", resp.StatusCode, body)
		}
	} // (the server may close before the client has read the answer)
	pr.CloseWithError(io.EOF)
	a.waitFor("/api/attachments 413", 2) // the bomb's, then this one's
	// A cross-site form (text/plain without the header), a foreign origin, no token.
	for _, c := range []struct {
		header map[string]string
		want   int
	}{
		{map[string]string{"Content-Type": "text/plain"}, 415},
		{map[string]string{"Content-Type": "multipart/form-data; boundary=x", "Origin": a.URL()}, 415},
		{map[string]string{"Content-Type": "text/plain", "X-Wisp-Upload": "1", "Origin": "https://evil.example"}, 403},
		{map[string]string{"Content-Type": "image/png", "Authorization": ""}, 401},
	} {
		if got := a.do("POST", "/api/attachments?name=x", strings.NewReader("payload"), c.header); got.status != c.want {
			t.Errorf("%v: %d %s, want %d", c.header, got.status, got.body, c.want)
		}
	}
	// Nothing partial: the two files stored above, no upload file left.
	if files := a.stored(); len(files) != 2 {
		t.Errorf("stored %v", files)
	}
	if got := a.do("GET", "/api/status", nil, nil); got.status != 200 {
		t.Errorf("Wisp stopped answering: %d", got.status)
	}
}

// waitFor waits until n requests have ended as line says ("<path> <status>").
func (a *attachApp) waitFor(line string, n int) {
	for a.seen[line] < n {
		a.seen[<-a.log.done]++
	}
}

// cutUpload announces an upload of announced bytes, sends sent of them and closes
// the connection, as a client that crashes would.
func (a *attachApp) cutUpload(announced, sent int) {
	a.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(a.URL(), "http://"))
	if err != nil {
		a.t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /api/attachments?name=cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", a.token, announced)
	if _, err := conn.Write(bytes.Repeat([]byte{0xAB}, sent)); err != nil {
		a.t.Fatal(err)
	}
	conn.Close()
}

// bombPNG is a 40000×40000 RGBA PNG in a few bytes: a decoder that trusted its header
// would allocate 6.4 GB.
func bombPNG(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// The IHDR chunk's data starts at 16: width, height; then its CRC at 29.
	putU32(b[16:], 40000)
	putU32(b[20:], 40000)
	putU32(b[29:], crcIEEE(b[12:29]))
	return b
}

func TestAttachFile(t *testing.T) {
	a := startAttachApp(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.md")
	os.WriteFile(path, []byte("# notes\n"), 0o600)
	got, err := a.AttachFile(context.Background(), path)
	if err != nil || got.Name != "notes.md" || got.Kind != "text" || got.MIME != "text/markdown; charset=utf-8" {
		t.Fatalf("AttachFile: %+v %v", got, err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AttachFile(context.Background(), fifo); !fault.Is(err, fault.Invalid) {
		t.Errorf("a pipe: %v", err)
	}
	big := filepath.Join(dir, "big.bin")
	os.WriteFile(big, make([]byte, 1<<20+1), 0o600)
	if _, err := a.AttachFile(context.Background(), big); !fault.Is(err, fault.TooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := a.AttachFile(context.Background(), filepath.Join(dir, "nope")); !fault.Is(err, fault.NotFound) {
		t.Errorf("missing: %v", err)
	}
}

func putU32(b []byte, v uint32) { binary.BigEndian.PutUint32(b, v) }

func crcIEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
