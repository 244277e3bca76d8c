package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func catalog(t *testing.T) []struct {
	entry
	Loop bool `json:"loop"`
} {
	t.Helper()
	data, err := os.ReadFile("../../emotes/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		entry
		Loop bool `json:"loop"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// The committed files are exactly what the generator makes: nobody edited them by hand
// and nobody changed a motion without regenerating.
func TestCommittedFilesAreGenerated(t *testing.T) {
	var entries []entry
	for _, e := range catalog(t) {
		entries = append(entries, e.entry)
	}
	files, err := build(entries)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("../../emotes/glb", name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./emotes)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run go generate ./emotes)", name)
		}
	}
	if len(motions) != len(entries) {
		t.Errorf("%d motions for %d catalog entries", len(motions), len(entries))
	}
}

// A looping clip ends in the pose it starts with, so it loops without a jump; a clip that
// does not loop starts standing, so the crossfade from idle is short.
func TestClipEnds(t *testing.T) {
	for _, e := range catalog(t) {
		m := motions[e.ID]
		first, last := m(0), m(e.Duration)
		if e.Loop {
			if d := poseDistance(first, last); d > 0.5 {
				t.Errorf("%s loops with a jump of %.2f° between its end and its start", e.ID, d)
			}
			continue
		}
		if d := poseDistance(first, idle(0)); d > 15 {
			t.Errorf("%s starts %.1f° away from standing", e.ID, d)
		}
	}
}

// poseDistance is the largest rotation difference between two poses, in degrees, with
// the hips' movement counted at a degree per centimetre.
func poseDistance(a, b pose) float64 {
	worst := a.move.sub(b.move).length() * 100
	for i := range a.rot {
		qa, qb := a.rot[i].quat(), b.rot[i].quat()
		dot := math.Abs(qa.X*qb.X + qa.Y*qb.Y + qa.Z*qb.Z + qa.W*qb.W)
		worst = math.Max(worst, 2*math.Acos(math.Min(1, dot))*180/math.Pi)
	}
	return worst
}

// The GLB writer's output parses as glTF JSON with the declared chunk lengths.
func TestGLBLayout(t *testing.T) {
	d, err := buildClip("test", 1, func(t float64) pose { return pose{}.l(head, euler{Y: 30 * t}) })
	if err != nil {
		t.Fatal(err)
	}
	data, err := d.glb()
	if err != nil {
		t.Fatal(err)
	}
	if string(data[:4]) != "glTF" || len(data)%4 != 0 {
		t.Fatalf("header %q, length %d", data[:4], len(data))
	}
	var doc document
	n := int(data[12]) | int(data[13])<<8 | int(data[14])<<16 | int(data[15])<<24
	if err := json.Unmarshal(data[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Animations) != 1 || len(doc.Nodes) != int(boneCount) {
		t.Fatalf("%d animations, %d nodes", len(doc.Animations), len(doc.Nodes))
	}
	dense := 0
	for _, s := range doc.Animations[0].Samplers {
		if doc.Accessors[s.Input].Count > 2 {
			dense++
		}
	}
	if dense != 1 {
		t.Errorf("%d bones keyed densely, want only the moving head", dense)
	}
}

func TestPlantedFeetStayDown(t *testing.T) {
	p := pose{}.at(vec3{Y: -0.2, Z: -0.05}).l(hips, euler{X: 10}).planted()
	// walk the left leg's chain in the sagittal plane
	hip := skeleton[hips].offset.add(p.move).add(p.rot[hips].quat().rotate(skeleton[upperLegL].offset))
	q := p.rot[hips].quat().mul(p.rot[upperLegL].quat())
	knee := hip.add(q.rotate(skeleton[lowerLegL].offset))
	q = q.mul(p.rot[lowerLegL].quat())
	ankle := knee.add(q.rotate(skeleton[footL].offset))
	want := restPosition(footL)
	if ankle.sub(want).length() > 0.01 {
		t.Errorf("ankle at %+v, want %+v", ankle, want)
	}
	q = q.mul(p.rot[footL].quat())
	if toe := q.rotate(vec3{Z: 1}); math.Abs(toe.Y) > 0.01 {
		t.Errorf("foot not flat: toe direction %+v", toe)
	}
}

// The VRM fixtures the browser tests load are what the generator makes.
func TestCommittedVRMFixturesAreGenerated(t *testing.T) {
	files, err := buildFixtures()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("../../frontend/e2e/fixtures", name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./emotes)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run go generate ./emotes)", name)
		}
		if len(want) > 200<<10 {
			t.Errorf("%s is %d bytes: keep the fixtures small", name, len(want))
		}
	}
}

// A VRM stands in a T-pose with no bone rotated, facing +Z (1.0) or -Z (0.x), and its
// skin's bind matrices put each bone back at the origin.
func TestVRMPose(t *testing.T) {
	for spec, facing := range map[string]float64{"1.0": 1, "0.0": -1} {
		d := buildVRM(spec)
		world := func(b bone) vec3 {
			p := vec3{}
			for ; b >= 0; b = skeleton[b].parent {
				n := d.Nodes[b]
				if n.Rotation != nil {
					t.Errorf("%s: bone %s is rotated", spec, n.Name)
				}
				p = p.add(vec3{n.Translation[0], n.Translation[1], n.Translation[2]})
			}
			return p
		}
		// the character's left hand is out to its left: +X facing +Z, -X facing -Z
		if h, s := world(handL), world(shoulderL); (h.X-s.X)*facing < 0.4 || math.Abs(h.Y-s.Y) > 1e-6 {
			t.Errorf("%s: left hand at %+v, shoulder at %+v: not a T-pose", spec, h, s)
		}
		if world(head).Y < 1.2 {
			t.Errorf("%s: the head is at %+v", spec, world(head))
		}
		ext := d.Extensions
		if spec == "1.0" && ext["VRMC_vrm"] == nil || spec == "0.0" && ext["VRM"] == nil {
			t.Errorf("%s: extensions %v", spec, ext)
		}
		if len(d.Skins) != 1 || len(d.Skins[0].Joints) != int(boneCount) {
			t.Fatalf("%s: skins %+v", spec, d.Skins)
		}
	}
	if _, err := json.Marshal(buildVRM("1.0").Extensions); err != nil {
		t.Fatal(err)
	}
}
