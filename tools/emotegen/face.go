package main

import (
	"maps"
	"math"
)

// The face: eyes (whites, dark irises, a sparkle), brows and a mouth, draped over the
// front of the head. It is one mesh whose morph targets are named like VRM 1.0's
// expression presets, so the page drives the built-in avatar and a VRM character by the
// same names. Every primitive of the mesh carries every target (zeros where a target does
// not move it), so one name sets the whole face.
//
// The avatar is small on screen, so the shapes are exaggerated: "aa" opens the mouth wide,
// "blink" closes the eyes to a line, "happy" turns them into arches.

// faceTargets are the morph targets, in order: VRM 1.0's preset names.
var faceTargets = []string{
	"aa", "ih", "ou", "ee", "oh",
	"blink", "blinkLeft", "blinkRight",
	"happy", "angry", "sad", "relaxed", "surprised",
	"lookUp", "lookDown", "lookLeft", "lookRight",
}

// featureKind is what a face feature is; it decides how each target moves it.
type featureKind int

const (
	eyeWhite featureKind = iota
	iris
	sparkle
	brow
	mouthPart
)

// feature is one ellipsoid of the face, described on the character's left side (x > 0)
// and mirrored by side (+1 left, -1 right, 0 centre).
type feature struct {
	kind   featureKind
	side   float64
	mat    int
	centre [2]float64 // x (outward) and y, head space
	radii  [3]float64 // x, y, and the depth of the lens
	lift   float64    // how far its front stands off the head's surface
}

// The head's surface is the skin ellipsoid of centreParts: centre (0, 0.17, 0).
var (
	headCentre = vec3{0, 0.17, 0}
	headRadii  = vec3{0.2, 0.19, 0.19}
	eyeCentre  = [2]float64{0.072, 0.15}
	eyeRadii   = [2]float64{0.036, 0.046}
	browCentre = [2]float64{0.078, 0.228}
	mouthY     = 0.078
)

// faceFeatures lists the face's parts; the left ones are mirrored.
func faceFeatures() []feature {
	left := []feature{
		{kind: eyeWhite, mat: matWhite, centre: eyeCentre, radii: [3]float64{eyeRadii[0], eyeRadii[1], 0.006}, lift: 0.004},
		{kind: iris, mat: matEyes, centre: [2]float64{eyeCentre[0] - 0.002, eyeCentre[1] - 0.004}, radii: [3]float64{0.027, 0.037, 0.006}, lift: 0.007},
		{kind: sparkle, mat: matWhite, centre: [2]float64{eyeCentre[0] - 0.009, eyeCentre[1] + 0.012}, radii: [3]float64{0.009, 0.011, 0.004}, lift: 0.011},
		{kind: brow, mat: matHair, centre: browCentre, radii: [3]float64{0.032, 0.0075, 0.006}, lift: 0.005},
	}
	var out []feature
	for _, f := range left {
		f.side = 1
		out = append(out, f)
		f.side = -1
		out = append(out, f)
	}
	return append(out, feature{kind: mouthPart, mat: matMouth, radii: [3]float64{1, 1, 0.005}, lift: 0.003})
}

// headSurfaceZ is the front of the head's skin at (x, y) in head space.
func headSurfaceZ(x, y float64) float64 {
	a, b := (x-headCentre.X)/headRadii.X, (y-headCentre.Y)/headRadii.Y
	return headCentre.Z + headRadii.Z*math.Sqrt(math.Max(0, 1-a*a-b*b))
}

// eyeShape is how an expression reshapes one eye part, in the eye's own frame.
type eyeShape struct {
	sx, sy float64 // scale about the eye's centre
	down   float64 // the whole part moves down by this much
	arch   float64 // the middle rises by this much over the corners (happy eyes: ^ ^)
	back   float64 // sinks into the head (the whites and sparkle hide while the eye is shut)
	dx, dy float64 // glance (irises and sparkles only)
}

var restEye = eyeShape{sx: 1, sy: 1}

// shut is an eye closed to a line: the iris widens to the white's width and flattens, the
// white and the sparkle sink into the head.
func shut(k featureKind, sy, down, arch float64) eyeShape {
	s := eyeShape{sx: 1, sy: sy, down: down, arch: arch}
	switch k {
	case iris:
		s.sx = 1.4
	case eyeWhite, sparkle:
		s.back = 0.03
	}
	return s
}

// eyeFor is an eye part's shape under a target.
func eyeFor(f feature, target string) eyeShape {
	const glance = 0.011
	look := f.kind == iris || f.kind == sparkle
	switch target {
	case "blink":
		return shut(f.kind, 0.09, 0.008, 0)
	case "blinkLeft", "blinkRight":
		if (target == "blinkLeft") == (f.side > 0) {
			return shut(f.kind, 0.09, 0.008, 0)
		}
	case "happy":
		return shut(f.kind, 0.16, 0.002, 0.02)
	case "relaxed":
		s := restEye
		s.sy, s.down, s.arch = 0.45, 0.014, 0.006
		if f.kind == sparkle {
			s.back = 0.03
		}
		return s
	case "angry":
		return eyeShape{sx: 1, sy: 0.72, down: 0.006}
	case "sad":
		return eyeShape{sx: 0.95, sy: 0.82, down: 0.006}
	case "surprised":
		if f.kind == iris {
			return eyeShape{sx: 0.72, sy: 0.72}
		}
		if f.kind == sparkle {
			return eyeShape{sx: 0.8, sy: 0.8, down: -0.006}
		}
		return eyeShape{sx: 1.18, sy: 1.2}
	case "lookUp", "lookDown", "lookLeft", "lookRight":
		if !look {
			break
		}
		s := restEye
		switch target {
		case "lookUp":
			s.dy = glance
		case "lookDown":
			s.dy = -glance
		case "lookLeft": // the character's left, +X
			s.dx = glance
		case "lookRight":
			s.dx = -glance
		}
		return s
	}
	return restEye
}

// browShape is how an expression moves a brow: up, its inner end up (tilt), inward.
type browShape struct{ up, tilt, in float64 }

func browFor(target string) browShape {
	switch target {
	case "happy":
		return browShape{up: 0.01}
	case "angry":
		return browShape{up: -0.012, tilt: -0.016, in: 0.008}
	case "sad":
		return browShape{up: 0.004, tilt: 0.016}
	case "surprised":
		return browShape{up: 0.024}
	case "relaxed":
		return browShape{up: -0.004}
	case "blink":
		return browShape{up: -0.005}
	}
	return browShape{}
}

// mouthShape is the mouth: half width, half height of the opening, how far the corners
// rise (a smile; negative frowns), and how far the whole mouth drops (a jaw opening).
type mouthShape struct{ w, h, curve, drop float64 }

var restMouth = mouthShape{w: 0.03, h: 0.004, curve: 0.006}

func mouthFor(target string) mouthShape {
	switch target {
	case "aa":
		return mouthShape{w: 0.034, h: 0.034, drop: 0.014}
	case "ih":
		return mouthShape{w: 0.04, h: 0.012, curve: 0.004, drop: 0.002}
	case "ou":
		return mouthShape{w: 0.015, h: 0.018, drop: 0.006}
	case "ee":
		return mouthShape{w: 0.044, h: 0.01, curve: 0.008, drop: 0.002}
	case "oh":
		return mouthShape{w: 0.024, h: 0.027, drop: 0.011}
	case "happy":
		return mouthShape{w: 0.042, h: 0.013, curve: 0.028, drop: 0.008}
	case "angry":
		return mouthShape{w: 0.026, h: 0.005, curve: -0.012}
	case "sad":
		return mouthShape{w: 0.028, h: 0.004, curve: -0.022, drop: -0.004}
	case "relaxed":
		return mouthShape{w: 0.033, h: 0.004, curve: 0.016}
	case "surprised":
		return mouthShape{w: 0.019, h: 0.026, drop: 0.011}
	}
	return restMouth
}

// place is where the point u of the unit dome lands on a feature under a target ("" is
// the rest face), in head space.
func (f feature) place(u vec3, target string) vec3 {
	var x, y, back float64
	switch f.kind {
	case mouthPart:
		m := mouthFor(target)
		x = m.w * u.X
		y = mouthY - m.drop + m.h*u.Y + m.curve*u.X*u.X
	case brow:
		b := browFor(target)
		lx, ly := f.radii[0]*u.X, f.radii[1]*u.Y+0.007*(1-u.X*u.X) // an arch at rest
		inner := -u.X                                              // +1 at the inner end
		x = f.side * (f.centre[0] + lx - b.in*(1+inner)/2)
		y = f.centre[1] + ly + b.up + b.tilt*inner
	default:
		s := eyeFor(f, target)
		lx := f.centre[0] - eyeCentre[0] + f.radii[0]*u.X
		ly := f.centre[1] - eyeCentre[1] + f.radii[1]*u.Y
		a := lx / eyeRadii[0]
		x = f.side*(eyeCentre[0]+lx*s.sx) + s.dx
		y = eyeCentre[1] - s.down + ly*s.sy + s.arch*(1-a*a) + s.dy
		back = s.back
	}
	z := headSurfaceZ(x, y) + f.lift + f.radii[2]*(u.Z-1) - back
	return vec3{round(x), round(y), round(z)}
}

// faceLOD is how finely each feature's ellipsoid is tessellated.
type faceLOD struct{ rings, segments int }

// faceFrame places the face in a model. The built-in avatar hangs it on the Head node as
// it is (the zero frame); a VRM skins it to the Head: at is the Head's position, turn
// faces it to -Z (VRM 0.x), and skin adds the attributes binding n vertices to the Head.
type faceFrame struct {
	at   vec3
	turn bool
	skin func(n int) map[string]int
}

func (fr faceFrame) dir(v vec3) vec3 {
	if fr.turn {
		return vec3{-v.X, v.Y, -v.Z}
	}
	return v
}

func (fr faceFrame) point(v vec3) vec3 { return fr.dir(v).add(fr.at) }

// addFace appends the face mesh (one primitive per material, every one with all of
// faceTargets) and returns its index.
func (d *document) addFace(lod faceLOD, fr faceFrame) int {
	unit := dome(lod.rings, lod.segments)
	byMat := map[int][]feature{}
	var mats []int
	for _, f := range faceFeatures() {
		if _, ok := byMat[f.mat]; !ok {
			mats = append(mats, f.mat)
		}
		byMat[f.mat] = append(byMat[f.mat], f)
	}
	m := mesh{Name: "Face", Weights: make([]float64, len(faceTargets)),
		Extras: &meshExtras{TargetNames: faceTargets}}
	for _, mat := range mats {
		var g geometry
		rest := func(f feature, u vec3) vec3 { return f.place(u, "") }
		for _, f := range byMat[mat] {
			base := uint16(len(g.pos))
			for i, u := range unit.pos {
				g.pos = append(g.pos, fr.point(rest(f, u)))
				n := unit.nrm[i]
				g.nrm = append(g.nrm, fr.dir(vec3{n.X * 0.35, n.Y * 0.35, math.Max(n.Z, 0.2)}.norm()))
			}
			for i := 0; i < len(unit.idx); i += 3 {
				a, b, c := unit.idx[i], unit.idx[i+1], unit.idx[i+2]
				if f.side < 0 { // mirrored: keep the faces outward
					b, c = c, b
				}
				g.idx = append(g.idx, base+a, base+b, base+c)
			}
		}
		p := d.primitive(g, mat)
		if fr.skin != nil {
			maps.Copy(p.Attributes, fr.skin(len(g.pos)))
		}
		for _, t := range faceTargets {
			var delta []float64
			moved := false
			for _, f := range byMat[mat] {
				for _, u := range unit.pos {
					dv := fr.dir(f.place(u, t).sub(rest(f, u)))
					moved = moved || dv != (vec3{})
					delta = append(delta, round(dv.X), round(dv.Y), round(dv.Z))
				}
			}
			acc := d.zeros(len(delta) / 3)
			if moved {
				acc = d.floats(delta, "VEC3", targetArray)
			}
			p.Targets = append(p.Targets, map[string]int{"POSITION": acc})
		}
		m.Primitives = append(m.Primitives, p)
	}
	d.Meshes = append(d.Meshes, m)
	return len(d.Meshes) - 1
}
