package emotes

import (
	"encoding/json"
	"io"
	"math"
	"slices"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The built-in catalog is REFERENCE.md's, and every entry has a real clip of its length.
func TestBuiltinCatalog(t *testing.T) {
	list := Builtin()
	if len(list) != 29 {
		t.Fatalf("%d built-in emotes, want the 29 of the reference catalog", len(list))
	}
	seen := map[string]bool{}
	for _, e := range list {
		t.Run(e.ID, func(t *testing.T) {
			if seen[e.ID] {
				t.Fatal("duplicate id")
			}
			seen[e.ID] = true
			if e.Name == "" || e.Description == "" || !slices.Contains(Categories, e.Category) {
				t.Errorf("incomplete entry %+v", e)
			}
			if e.GLBPath != "/emotes/"+e.ID+".glb" || e.Source != SourceBuiltin {
				t.Errorf("glbPath %q source %q", e.GLBPath, e.Source)
			}
			a, err := openEmbedded(e.ID + ".glb")
			if err != nil {
				t.Fatalf("no file: %v", err)
			}
			data, _ := io.ReadAll(a)
			info, err := Inspect(data)
			if err != nil {
				t.Fatalf("not a valid GLB: %v", err)
			}
			if int(info.Length) != len(data) {
				t.Errorf("header length %d, file %d bytes", info.Length, len(data))
			}
			if info.Animations != 1 {
				t.Errorf("%d animations, want 1", info.Animations)
			}
			if math.Abs(info.Duration-e.Duration) > 0.1 {
				t.Errorf("clip lasts %.3f s, catalog says %.3f s", info.Duration, e.Duration)
			}
			if info.Nodes < 19 {
				t.Errorf("%d nodes: the clip lacks the avatar's skeleton", info.Nodes)
			}
		})
	}
	// spot checks against REFERENCE.md
	want := map[string]struct {
		cat  string
		dur  float64
		loop bool
	}{
		"wave": {"greeting", 2.5, false}, "crying": {"emotion", 3, true}, "dance-popping": {"dance", 4, true},
		"hook-punch": {"combat", 1.5, false}, "death": {"combat", 3, false}, "idle": {"idle", 5, true},
		"jump": {"movement", 1.5, false}, "crawling": {"movement", 3, true},
	}
	for _, e := range list {
		if w, ok := want[e.ID]; ok && (w.cat != e.Category || w.dur != e.Duration || w.loop != e.Loop) {
			t.Errorf("%s: %s %.1f %v, want %+v", e.ID, e.Category, e.Duration, e.Loop, w)
		}
	}
}

func TestAvatarIsAModel(t *testing.T) {
	a, err := OpenAvatar()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(a)
	info, err := Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	if info.Meshes < 5 || info.Nodes < 19 {
		t.Errorf("avatar has %d meshes and %d nodes", info.Meshes, info.Nodes)
	}
	// every bone a clip animates is a node of the avatar, by name
	names := func(data []byte) map[string]bool {
		var doc struct{ Nodes []struct{ Name string } }
		n := int(le32(data[12:]))
		if err := json.Unmarshal(data[20:20+n], &doc); err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, node := range doc.Nodes {
			m[node.Name] = true
		}
		return m
	}
	avatar := names(data)
	clip, _ := openEmbedded("wave.glb")
	cdata, _ := io.ReadAll(clip)
	for name := range names(cdata) {
		if !avatar[name] {
			t.Errorf("the clip's node %q is not in the avatar", name)
		}
	}
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func TestAgentIDs(t *testing.T) {
	ids := New(Options{}).AgentIDs()
	for _, banned := range []string{"idle", "run", "walk"} {
		if slices.Contains(ids, banned) {
			t.Errorf("the agent is offered %q", banned)
		}
	}
	if len(ids) != 26 || !slices.Contains(ids, "wave") {
		t.Errorf("agent ids %v", ids)
	}
}

func TestOpenUnknown(t *testing.T) {
	c := New(Options{})
	for _, id := range []string{"nope", "../catalog.json", "avatar", ""} {
		if _, err := c.Open(id); err != ErrNotFound {
			t.Errorf("Open(%q) = %v", id, err)
		}
	}
}
