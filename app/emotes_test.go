package app

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestEmoteAPI(t *testing.T) {
	a := startTerminal(t, "", nil)
	list := a.do("GET", "/api/emotes", nil, nil)
	items, _ := list.body["emotes"].([]any)
	if list.status != 200 || len(items) != 29 || list.body["avatar"] != "/avatar/wisp.glb" {
		t.Fatalf("GET /api/emotes: %d %d emotes, avatar %v", list.status, len(items), list.body["avatar"])
	}
	first, _ := items[0].(map[string]any)
	for _, k := range []string{"id", "name", "description", "category", "glbPath", "duration", "loop"} {
		if _, ok := first[k]; !ok {
			t.Errorf("an entry lacks %q: %v", k, first)
		}
	}

	w := dialSocket(t, a.App, "")
	if got := a.do("POST", "/api/emote", map[string]string{"emoteId": "wave"}, nil); got.status != 200 || got.body["ok"] != true {
		t.Fatalf("POST wave: %d %v", got.status, got.body)
	}
	f := w.waitFor(t, ofType("emote"))
	want := map[string]any{"type": "emote", "emoteId": "wave", "glbPath": "/emotes/wave.glb", "duration": 2.5, "loop": false}
	if len(f) != len(want) {
		t.Errorf("emote frame %v, want exactly %v", f, want)
	}
	for k, v := range want {
		if f[k] != v {
			t.Errorf("emote frame %s = %v, want %v", k, f[k], v)
		}
	}

}

func fetch(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func TestEmoteFiles(t *testing.T) {
	a := startTerminal(t, "", map[string]string{"WISP_API_TOKEN": "secret"})
	for _, path := range []string{"/emotes/wave.glb", "/avatar/wisp.glb"} {
		resp, data := fetch(t, a.URL()+path, nil) // no token: the models are public
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "model/gltf-binary" || string(data[:4]) != "glTF" {
			t.Fatalf("GET %s: %d %s %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), data[:min(4, len(data))])
		}
		tag := resp.Header.Get("ETag")
		if tag == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age") {
			t.Errorf("GET %s: ETag %q Cache-Control %q", path, tag, resp.Header.Get("Cache-Control"))
		}
		if again, _ := fetch(t, a.URL()+path, map[string]string{"If-None-Match": tag}); again.StatusCode != 304 {
			t.Errorf("revalidation of %s: %d, want 304", path, again.StatusCode)
		}
	}
	for _, path := range []string{
		"/emotes/moonwalk.glb", "/emotes/wave", "/emotes/wave.gltf", "/emotes/..%2fwisp.db", "/emotes/%2e%2e%2fcatalog.json",
		"/emotes/avatar.glb", "/emotes/", "/emotes/.glb", "/emotes/a/wave.glb",
	} {
		resp, data := fetch(t, a.URL()+path, nil)
		if resp.StatusCode != 404 || !strings.Contains(string(data), `"error"`) {
			t.Errorf("GET %s: %d %s, want a JSON 404", path, resp.StatusCode, data)
		}
	}
	// the catalog and playing need the token
	if resp, _ := fetch(t, a.URL()+"/api/emotes", nil); resp.StatusCode != 401 {
		t.Errorf("GET /api/emotes without the token: %d", resp.StatusCode)
	}
	if got := a.do("POST", "/api/emote", map[string]string{"emoteId": "wave"}, nil); got.status != 401 {
		t.Errorf("POST /api/emote without the token: %d", got.status)
	}
}

// A pack dropped into <state>/emotes while Wisp runs is listed and served; a symlink
// smuggled in is not.
func TestUserPackAtRunTime(t *testing.T) {
	a := startTerminal(t, "", nil)
	dir := filepath.Join(a.stateDir, "emotes")
	asset, err := a.emotes.Open("jump")
	if err != nil {
		t.Fatal(err)
	}
	clip, _ := io.ReadAll(asset)
	if err := os.WriteFile(filepath.Join(a.stateDir, "wisp-secret.glb"), clip, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(a.stateDir, "wisp-secret.glb"), filepath.Join(dir, "sneaky.glb")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bow.glb"), clip, 0o600); err != nil {
		t.Fatal(err)
	}
	manifest := `{"emotes": [{"id": "bow", "name": "Bow", "file": "bow.glb", "category": "greeting"},
		{"id": "escape", "file": "../wisp-secret.glb"}]}`
	if err := os.WriteFile(filepath.Join(dir, emotes.ManifestFile), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	ids := func() []string {
		var out []string
		items, _ := a.do("GET", "/api/emotes", nil, nil).body["emotes"].([]any)
		for _, it := range items {
			out = append(out, str(it.(map[string]any)["id"]))
		}
		return out
	}
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Contains(ids(), "bow") {
		if time.Now().After(deadline) {
			t.Fatalf("bow never appeared: %v", ids())
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := ids()
	if slices.Contains(got, "sneaky") || slices.Contains(got, "escape") {
		t.Errorf("a symlink or a path outside the folder was accepted: %v", got)
	}
	resp, data := fetch(t, a.URL()+"/emotes/bow.glb", nil)
	if resp.StatusCode != 200 || len(data) != len(clip) || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("GET /emotes/bow.glb: %d, %d bytes, %q", resp.StatusCode, len(data), resp.Header.Get("Cache-Control"))
	}
	if resp, _ := fetch(t, a.URL()+"/emotes/sneaky.glb", nil); resp.StatusCode != 404 {
		t.Errorf("the symlink was served: %d", resp.StatusCode)
	}
	w := dialSocket(t, a.App, "")
	if got := a.do("POST", "/api/emote", map[string]string{"emoteId": "bow"}, nil); got.status != 200 {
		t.Fatalf("POST bow: %d %v", got.status, got.body)
	}
	if f := w.waitFor(t, ofType("emote")); f["glbPath"] != "/emotes/bow.glb" || f["duration"] != 1.5 {
		t.Errorf("bow frame %v", f)
	}
}

// The model sees the emotes as an enum, plays one, and its status reaches the chat.
func TestPlayEmoteAction(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(
		llmtest.Turn{Text: []string{"Hello there!"}, ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "PLAY_EMOTE", map[string]string{"emoteId": "wave"})}},
		llmtest.Turn{},
	)
	w := c.dialWS()
	conv := c.newConversation()
	frames := c.stream(conv, "hi!").all(t)
	f := w.waitFor(t, ofType("emote"))
	if f["emoteId"] != "wave" || f["glbPath"] != "/emotes/wave.glb" {
		t.Errorf("emote frame %v", f)
	}
	last := frames[len(frames)-1]
	if !strings.Contains(last.str("fullText"), "Waving 👋") {
		t.Errorf("final text %q lacks the status", last.str("fullText"))
	}
	hist, _ := json.Marshal(last.Data["actionCallbackHistory"])
	if string(hist) != `["Waving 👋"]` {
		t.Errorf("callback history %s", hist)
	}
	reqs := c.fake.Requests()
	var body struct {
		Tools []struct {
			Function struct {
				Name       string
				Parameters struct {
					Properties struct{ EmoteID struct{ Enum []string } }
				}
			}
		}
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, tool := range body.Tools {
		if tool.Function.Name == "PLAY_EMOTE" {
			enum = tool.Function.Parameters.Properties.EmoteID.Enum
		}
	}
	if len(enum) != 26 || !slices.Contains(enum, "wave") || slices.Contains(enum, "idle") || slices.Contains(enum, "walk") || slices.Contains(enum, "run") {
		t.Errorf("PLAY_EMOTE enum %v", enum)
	}
	if !strings.Contains(reqs[0].System, "emote") {
		t.Errorf("the system prompt does not mention the avatar: %q", reqs[0].System)
	}
}

func TestPlayEmoteActionRefusesIdle(t *testing.T) {
	c := startChat(t, t.TempDir())
	c.fake.Script(
		llmtest.Turn{ToolCalls: []llm.ToolCall{llmtest.Call("call_1", "PLAY_EMOTE", map[string]string{"emoteId": "idle"})}},
		llmtest.Turn{Text: []string{"ok"}},
	)
	conv := c.newConversation()
	c.stream(conv, "stand still").all(t)
	reqs := c.fake.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	result := msgs[len(msgs)-1]
	if result.Role != llm.RoleTool || !strings.Contains(result.Text, "unknown emote") {
		t.Errorf("tool result %+v", result)
	}
}
