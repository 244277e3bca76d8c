package api

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/avatar"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/emotes"
)

// storeAvatar serves a real avatar.Store, recording what it would publish and the
// result of every Save.
type storeAvatar struct {
	*avatar.Store
	limit     int64
	published chan wire.Avatar
	saved     chan error
}

func (a storeAvatar) Current(context.Context) wire.Avatar { return a.Store.Current() }
func (a storeAvatar) Open(context.Context) (*avatar.File, error) {
	return a.Store.Open()
}
func (a storeAvatar) Limit() int64 { return a.limit }
func (a storeAvatar) Save(ctx context.Context, name string, body io.Reader) (wire.Avatar, error) {
	got, err := a.Store.Save(ctx, name, body)
	a.saved <- err
	if err == nil {
		a.published <- got
	}
	return got, err
}
func (a storeAvatar) Remove(context.Context) (wire.Avatar, error) {
	got, err := a.Store.Remove()
	if err == nil {
		a.published <- got
	}
	return got, err
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../frontend/e2e/fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// repack changes a GLB's JSON chunk with edit and packs it again with its BIN chunk.
func repack(t *testing.T, data []byte, edit func(doc map[string]any)) []byte {
	t.Helper()
	le := binary.LittleEndian
	n := le.Uint32(data[12:])
	var doc map[string]any
	if err := json.Unmarshal(data[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	js, _ := json.Marshal(doc)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	bin := data[20+n:]
	out := append([]byte("glTF"), 2, 0, 0, 0)
	out = le.AppendUint32(out, uint32(20+len(js)+len(bin)))
	out = le.AppendUint32(out, uint32(len(js)))
	out = append(out, "JSON"...)
	out = append(out, js...)
	return append(out, bin...)
}

func serveAvatar(t *testing.T) (*served, storeAvatar, string) {
	dir := t.TempDir()
	a := storeAvatar{Store: avatar.New(dir, slog.New(slog.DiscardHandler)), limit: avatar.DefaultMaxBytes,
		published: make(chan wire.Avatar, 10), saved: make(chan error, 10)}
	s := serveAPI(t, "tok", Options{Avatar: a, Emotes: fakeEmotes{list: func(context.Context) []emotes.Emote { return nil }}})
	return s, a, dir
}

func upload(s *served, data []byte, header map[string]string) answer {
	h := map[string]string{"Content-Type": "model/gltf-binary"}
	for k, v := range header {
		h[k] = v
	}
	return s.call("POST", "/api/avatar?name=mine.vrm", string(data), h)
}

func TestAvatarUploadServeRemove(t *testing.T) {
	s, a, _ := serveAvatar(t)
	if got := s.call("GET", "/api/avatar", nil, nil); got.status != 200 || got.body["kind"] != "builtin" || got.body["url"] != AvatarPath {
		t.Fatalf("GET before: %d %v", got.status, got.body)
	}
	vrm := fixture(t, "wisp-test.vrm")
	got := upload(s, vrm, nil)
	if got.status != 201 || got.body["kind"] != "vrm" || got.body["vrmVersion"] != "1" || got.body["name"] != "mine.vrm" ||
		got.body["size"] != float64(len(vrm)) || !strings.HasPrefix(str(got.body["url"]), "/avatar/user.vrm?v=") {
		t.Fatalf("upload: %d %v", got.status, got.body)
	}
	url := str(got.body["url"])
	if p := <-a.published; p.URL != url {
		t.Errorf("published %+v", p)
	}
	if cur := s.call("GET", "/api/avatar", nil, nil); cur.body["url"] != url {
		t.Errorf("GET after: %v", cur.body)
	}
	if list := s.call("GET", "/api/emotes", nil, nil); list.body["avatar"] != url {
		t.Errorf("the catalog's avatar is %v, want %s", list.body["avatar"], url)
	}
	// the model is public, revalidated, and answers If-None-Match
	resp, err := http.Get(s.url + url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 200 || !bytes.Equal(body, vrm) || h.Get("Content-Type") != "model/gltf-binary" ||
		h.Get("Cache-Control") != "no-cache" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("ETag") == "" {
		t.Fatalf("GET %s: %d, %d bytes, %v", url, resp.StatusCode, len(body), h)
	}
	req, _ := http.NewRequest("GET", s.url+avatar.UserPath, nil)
	req.Header.Set("If-None-Match", h.Get("ETag"))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 304 {
		t.Fatalf("revalidate: %v %v", resp, err)
	}
	// a 0.x model, with no type and the upload header, replaces it
	if got := upload(s, fixture(t, "wisp-test-0x.vrm"), map[string]string{"Content-Type": "", UploadHeader: "1"}); got.status != 201 || got.body["vrmVersion"] != "0" {
		t.Fatalf("0.x upload: %d %v", got.status, got.body)
	}
	<-a.published
	if got := s.call("DELETE", "/api/avatar", nil, nil); got.status != 200 || got.body["kind"] != "builtin" {
		t.Fatalf("DELETE: %d %v", got.status, got.body)
	}
	if p := <-a.published; p.Kind != wire.AvatarBuiltin {
		t.Errorf("published %+v", p)
	}
	if got := s.call("GET", avatar.UserPath, nil, nil); got.status != 404 {
		t.Errorf("GET the removed model: %d", got.status)
	}
	if list := s.call("GET", "/api/emotes", nil, nil); list.body["avatar"] != AvatarPath {
		t.Errorf("the catalog's avatar is %v after DELETE", list.body["avatar"])
	}
	s.checkGuarded([]route{{"GET", "/api/avatar", ""}, {"DELETE", "/api/avatar", ""}})
}

// Hostile and broken files are refused with a clear message; nothing is stored and the
// previous character stays.
func TestAvatarRefusesHostileFiles(t *testing.T) {
	s, a, dir := serveAvatar(t)
	good := fixture(t, "wisp-test.vrm")
	prev := upload(s, good, nil)
	if prev.status != 201 {
		t.Fatalf("upload: %d %v", prev.status, prev.body)
	}
	<-a.saved
	<-a.published
	le := binary.LittleEndian
	huge := bytes.Clone(good)
	le.PutUint32(huge[12:], 0xFFFFFFF0) // a 4 GB JSON chunk
	bomb := []byte(`{"asset":{"version":"2.0"},"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}")
	bombGLB := append([]byte("glTF\x02\x00\x00\x00"), le.AppendUint32(nil, uint32(20+len(bomb)))...)
	bombGLB = append(le.AppendUint32(bombGLB, uint32(len(bomb))), "JSON"...)
	bombGLB = append(bombGLB, bomb...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"broken fixture", fixture(t, "broken.vrm"), "not a VRM model: its JSON does not parse"},
		{"empty", nil, "not a VRM model: the file is empty"},
		{"4 GB JSON chunk", huge, "runs past the end of the file"},
		{"JSON bomb", bombGLB, "nested more than"},
		{"file URI", repack(t, good, func(d map[string]any) {
			d["buffers"].([]any)[0].(map[string]any)["uri"] = "file:///etc/passwd"
		}), "refers to an outside file (file:///etc/passwd)"},
		{"http image", repack(t, good, func(d map[string]any) {
			d["images"] = []any{map[string]any{"uri": "http://example.com/steal.png"}}
		}), "refers to an outside file (http://example.com/steal.png)"},
		{"bone out of range", repack(t, good, func(d map[string]any) {
			bones := d["extensions"].(map[string]any)["VRMC_vrm"].(map[string]any)["humanoid"].(map[string]any)["humanBones"].(map[string]any)
			bones["hips"] = map[string]any{"node": 4096}
		}), "the humanoid bone hips refers to index 4096"},
		{"plain glTF", repack(t, good, func(d map[string]any) {
			delete(d, "extensions")
		}), "no VRMC_vrm"},
	} {
		got := upload(s, c.data, nil)
		if got.status != 400 || !strings.Contains(str(got.body["error"]), c.want) {
			t.Errorf("%s: %d %v, want 400 saying %q", c.name, got.status, got.body, c.want)
		}
		if err := <-a.saved; err == nil {
			t.Errorf("%s: saved", c.name)
		}
	}
	// the wrong type, or a simple one without the upload header, never reaches the store
	for _, h := range []map[string]string{{"Content-Type": "text/plain"}, {"Content-Type": "image/png", UploadHeader: "1"}, {"Content-Type": ""}} {
		if got := upload(s, good, h); got.status != 415 {
			t.Errorf("%v: %d %v", h, got.status, got.body)
		}
	}
	// over the limit: refused before the body is read
	small := a
	small.limit = 1000
	s2 := serveAPI(t, "tok", Options{Avatar: small})
	if got := upload(s2, good, nil); got.status != 413 || !strings.Contains(str(got.body["error"]), "larger than") {
		t.Errorf("too large: %d %v", got.status, got.body)
	}
	truncatedUpload(t, s, good)
	if err := <-a.saved; err == nil || !strings.Contains(err.Error(), "did not arrive whole") {
		t.Errorf("truncated upload: %v", err)
	}
	if cur := s.call("GET", "/api/avatar", nil, nil); cur.body["url"] != prev.body["url"] {
		t.Errorf("the previous character was replaced: %v", cur.body)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %d files: %v", len(entries), entries)
	}
	select {
	case p := <-a.published:
		t.Errorf("a refused model was published: %+v", p)
	default:
	}
}

// truncatedUpload sends half of data, then hangs up.
func truncatedUpload(t *testing.T, s *served, data []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.url, "http://")
	fmt.Fprintf(conn, "POST /api/avatar?name=cut.vrm HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: model/gltf-binary\r\nContent-Length: %d\r\n\r\n", host, s.token, len(data))
	if _, err := conn.Write(data[:len(data)/2]); err != nil {
		t.Fatal(err)
	}
	conn.Close()
}
