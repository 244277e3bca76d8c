package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The user's VRM character: stored in <state>/avatar, served to the page, offered as
// the catalog's avatar, and every window hears of each change.
func TestAvatarAPI(t *testing.T) {
	a := startTerminal(t, "", nil)
	w := dialSocket(t, a.App, "")
	vrm, err := os.ReadFile("../frontend/e2e/fixtures/wisp-test.vrm")
	if err != nil {
		t.Fatal(err)
	}
	up := map[string]string{"Content-Type": "model/gltf-binary", "X-Wisp-Upload": "1"}
	if got := a.do("POST", "/api/avatar?name=broken.vrm", "glTF broken", up); got.status != 400 ||
		!strings.HasPrefix(got.body["error"].(string), "not a VRM model: ") {
		t.Fatalf("broken upload: %d %v", got.status, got.body)
	}
	got := a.do("POST", "/api/avatar?name=wisp-test.vrm", string(vrm), up)
	url, _ := got.body["url"].(string)
	if got.status != 201 || got.body["kind"] != "vrm" || !strings.HasPrefix(url, "/avatar/user.vrm?v=") {
		t.Fatalf("upload: %d %v", got.status, got.body)
	}
	f := w.waitFor(t, ofType("avatar-changed"))
	if av, _ := f["avatar"].(map[string]any); av["url"] != url || av["kind"] != "vrm" || av["vrmVersion"] != "1" {
		t.Errorf("avatar-changed frame %v", f)
	}
	if list := a.do("GET", "/api/emotes", nil, nil); list.body["avatar"] != url {
		t.Errorf("the catalog's avatar is %v, want %s", list.body["avatar"], url)
	}
	resp, data := fetch(t, a.URL()+url, nil) // public, like the built-in avatar
	if resp.StatusCode != 200 || !bytes.Equal(data, vrm) {
		t.Errorf("GET %s: %d, %d bytes", url, resp.StatusCode, len(data))
	}
	if stored, _ := os.ReadFile(filepath.Join(a.StateDir(), "avatar", "user.vrm")); !bytes.Equal(stored, vrm) {
		t.Error("the model is not in <state>/avatar/user.vrm")
	}
	if got := a.do("DELETE", "/api/avatar", nil, nil); got.status != 200 || got.body["kind"] != "builtin" || got.body["url"] != "/avatar/wisp.glb" {
		t.Fatalf("DELETE: %d %v", got.status, got.body)
	}
	f = w.waitFor(t, ofType("avatar-changed"))
	if av, _ := f["avatar"].(map[string]any); av["kind"] != "builtin" {
		t.Errorf("avatar-changed frame %v", f)
	}
}
