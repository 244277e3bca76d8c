package main

import (
	"math"
	"testing"
)

// decodedPrim is a face primitive's positions and each target's deltas, decoded from the
// document's binary chunk.
type decodedPrim struct {
	pos    []vec3
	deltas map[string][]vec3
}

func decodeVec3(t *testing.T, d *document, acc int) []vec3 {
	t.Helper()
	a := d.Accessors[acc]
	out := make([]vec3, a.Count)
	if a.BufferView == nil {
		return out // all zeros
	}
	raw := d.bin.Bytes()[d.BufferViews[*a.BufferView].ByteOffset:]
	f := func(i int) float64 {
		b := raw[4*i:]
		return float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
	}
	for i := range out {
		out[i] = vec3{f(3 * i), f(3*i + 1), f(3*i + 2)}
	}
	return out
}

func faceMeshes(t *testing.T, d *document) map[int][]decodedPrim {
	t.Helper()
	out := map[int][]decodedPrim{}
	for mi, m := range d.Meshes {
		if m.Extras == nil {
			for _, p := range m.Primitives {
				if len(p.Targets) > 0 {
					t.Errorf("mesh %s has targets but no names", m.Name)
				}
			}
			continue
		}
		for _, p := range m.Primitives {
			dp := decodedPrim{pos: decodeVec3(t, d, p.Attributes["POSITION"]), deltas: map[string][]vec3{}}
			if len(p.Targets) != len(m.Extras.TargetNames) {
				t.Fatalf("mesh %s: %d targets, %d names", m.Name, len(p.Targets), len(m.Extras.TargetNames))
			}
			for i, name := range m.Extras.TargetNames {
				dp.deltas[name] = decodeVec3(t, d, p.Targets[i]["POSITION"])
				if len(dp.deltas[name]) != len(dp.pos) {
					t.Fatalf("mesh %s target %s: %d deltas for %d vertices", m.Name, name, len(dp.deltas[name]), len(dp.pos))
				}
			}
			out[mi] = append(out[mi], dp)
		}
	}
	return out
}

// Every face mesh carries every VRM preset name, so one name sets the whole face.
func TestFaceTargetsOnEveryFaceMesh(t *testing.T) {
	d := buildAvatar()
	faces := faceMeshes(t, d)
	if len(faces) == 0 {
		t.Fatal("the avatar has no face mesh")
	}
	want := []string{"aa", "ih", "ou", "ee", "oh", "blink", "blinkLeft", "blinkRight", "happy", "angry",
		"sad", "relaxed", "surprised", "lookUp", "lookDown", "lookLeft", "lookRight"}
	for mi := range faces {
		names := d.Meshes[mi].Extras.TargetNames
		if len(names) != len(want) {
			t.Fatalf("mesh %s has targets %v", d.Meshes[mi].Name, names)
		}
		for i := range want {
			if names[i] != want[i] {
				t.Errorf("mesh %s target %d is %q, want %q", d.Meshes[mi].Name, i, names[i], want[i])
			}
		}
		if len(d.Meshes[mi].Weights) != len(want) {
			t.Errorf("mesh %s has %d default weights", d.Meshes[mi].Name, len(d.Meshes[mi].Weights))
		}
	}
	// the face hangs on the Head bone, so every clip moves it with the head
	found := false
	for _, c := range d.Nodes[head].Children {
		if m := d.Nodes[c].Mesh; m != nil && faces[*m] != nil {
			found = true
		}
	}
	if !found {
		t.Error("the face mesh is not a child of the Head bone")
	}
	// every target moves something
	for _, name := range want {
		moved := false
		for _, prims := range faces {
			for _, p := range prims {
				for _, dv := range p.deltas[name] {
					moved = moved || dv.length() > 1e-4
				}
			}
		}
		if !moved {
			t.Errorf("target %s moves nothing", name)
		}
	}
}

// extent is the height and width of the vertices selected by keep, with the target's
// deltas applied at weight w.
func extent(prims []decodedPrim, target string, w float64, keep func(vec3) bool) (height, width float64) {
	lo, hi := vec3{1, 1, 1}, vec3{-1, -1, -1}
	for _, p := range prims {
		for i, v := range p.pos {
			if !keep(v) {
				continue
			}
			if target != "" {
				v = v.add(p.deltas[target][i].scale(w))
			}
			lo = vec3{math.Min(lo.X, v.X), math.Min(lo.Y, v.Y), 0}
			hi = vec3{math.Max(hi.X, v.X), math.Max(hi.Y, v.Y), 0}
		}
	}
	return hi.Y - lo.Y, hi.X - lo.X
}

func TestFaceTargetsMoveTheFace(t *testing.T) {
	d := buildAvatar()
	var prims []decodedPrim
	for _, p := range faceMeshes(t, d) {
		prims = append(prims, p...)
	}
	leftEye := func(v vec3) bool { return v.X > 0.02 && v.Y > 0.1 && v.Y < 0.205 }
	rightEye := func(v vec3) bool { return v.X < -0.02 && v.Y > 0.1 && v.Y < 0.205 }
	mouth := func(v vec3) bool { return math.Abs(v.X) < 0.05 && v.Y < 0.1 }
	for _, c := range []struct {
		target string
		part   string
		keep   func(vec3) bool
		ratio  float64 // height at weight 1 over rest: below it (< 1) or above it (> 1)
	}{
		{"blink", "left eye", leftEye, 0.15},
		{"blink", "right eye", rightEye, 0.15},
		{"blinkLeft", "left eye", leftEye, 0.15},
		{"blinkRight", "right eye", rightEye, 0.15},
		{"happy", "left eye", leftEye, 0.6},
		{"aa", "mouth", mouth, 5},
		{"oh", "mouth", mouth, 4},
		{"surprised", "mouth", mouth, 4},
		{"surprised", "left eye", leftEye, 1.15},
	} {
		rest, _ := extent(prims, "", 0, c.keep)
		got, _ := extent(prims, c.target, 1, c.keep)
		if rest == 0 {
			t.Fatalf("%s: no vertices", c.part)
		}
		r := got / rest
		if (c.ratio < 1 && r >= c.ratio) || (c.ratio > 1 && r <= c.ratio) {
			t.Errorf("%s: the %s's height is %.0f%% of rest, want beyond %.0f%%", c.target, c.part, 100*r, 100*c.ratio)
		}
	}
	// one-eyed blinks leave the other eye open
	for _, c := range []struct {
		target string
		keep   func(vec3) bool
	}{{"blinkLeft", rightEye}, {"blinkRight", leftEye}} {
		rest, _ := extent(prims, "", 0, c.keep)
		got, _ := extent(prims, c.target, 1, c.keep)
		if math.Abs(got-rest) > 1e-6 {
			t.Errorf("%s moves the other eye", c.target)
		}
	}
	// the rest mouth is closed: a line
	if h, w := extent(prims, "", 0, mouth); h > w/2 {
		t.Errorf("the rest mouth is %.3f high and %.3f wide: not closed", h, w)
	}
}
