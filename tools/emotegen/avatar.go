package main

import "math"

// The avatar is built from rounded parts hung on the skeleton's nodes: each part is a
// child node of its bone, so the clips move it rigidly with that bone.

type paint struct {
	name     string
	srgb     [3]float64
	rough    float64
	emissive bool
}

const (
	matSkin = iota
	matShirt
	matPants
	matShoes
	matHair
	matEyes
	matWhite
	matBlush
	matWisp
	matMouth
	matCount
)

var paints = [matCount]paint{
	matSkin:  {"Skin", [3]float64{0.99, 0.82, 0.70}, 0.75, false},
	matShirt: {"Hoodie", [3]float64{0.16, 0.62, 0.64}, 0.85, false},
	matPants: {"Trousers", [3]float64{0.17, 0.21, 0.34}, 0.9, false},
	matShoes: {"Shoes", [3]float64{0.93, 0.93, 0.95}, 0.6, false},
	matHair:  {"Hair", [3]float64{0.36, 0.24, 0.52}, 0.7, false},
	matEyes:  {"Eyes", [3]float64{0.09, 0.09, 0.14}, 0.3, false},
	matWhite: {"Sparkle", [3]float64{1, 1, 1}, 0.2, false},
	matBlush: {"Blush", [3]float64{0.98, 0.58, 0.60}, 0.8, false},
	matWisp:  {"Wisp", [3]float64{0.55, 0.95, 1.0}, 0.4, true},
	matMouth: {"Mouth", [3]float64{0.45, 0.11, 0.16}, 0.6, false},
}

// linear converts an sRGB channel to the linear value glTF colour factors hold.
func linear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// part is one piece of the avatar: a shape on a bone.
type part struct {
	bone  bone
	shape string // a key of the shapes table
	mat   int
	at    vec3 // offset from the bone, left side for mirrored parts
	size  vec3 // scale (radii for spheres)
	tilt  euler
}

// leftParts are mirrored onto the right side; centreParts are not.
var leftParts = []part{
	{bone: upperArmL, shape: "sphere", mat: matShirt, size: vec3{0.062, 0.062, 0.062}},
	{bone: upperArmL, shape: "upperArm", mat: matShirt, size: vec3{1, 1, 1}},
	{bone: foreArmL, shape: "foreArm", mat: matSkin, size: vec3{1, 1, 1}},
	{bone: foreArmL, shape: "sphere", mat: matShirt, at: vec3{0, -0.015, 0}, size: vec3{0.056, 0.045, 0.056}},
	{bone: handL, shape: "sphere", mat: matSkin, at: vec3{0, -0.045, 0}, size: vec3{0.036, 0.06, 0.05}},
	{bone: handL, shape: "sphere", mat: matSkin, at: vec3{-0.008, -0.03, 0.045}, size: vec3{0.017, 0.032, 0.017}, tilt: euler{X: -25}},
	{bone: upperLegL, shape: "upperLeg", mat: matPants, size: vec3{1, 1, 1}},
	{bone: lowerLegL, shape: "lowerLeg", mat: matPants, size: vec3{1, 1, 1}},
	{bone: footL, shape: "sphere", mat: matShoes, at: vec3{0, -0.035, 0.04}, size: vec3{0.062, 0.047, 0.11}},
	{bone: head, shape: "sphere", mat: matBlush, at: vec3{0.118, 0.098, 0.142}, size: vec3{0.03, 0.016, 0.012}, tilt: euler{Y: 40}},
}

var centreParts = []part{
	{bone: hips, shape: "sphere", mat: matPants, at: vec3{0, -0.01, 0}, size: vec3{0.14, 0.105, 0.1}},
	{bone: spine, shape: "sphere", mat: matShirt, at: vec3{0, 0.07, 0}, size: vec3{0.142, 0.14, 0.1}},
	{bone: chest, shape: "sphere", mat: matShirt, at: vec3{0, 0.05, 0}, size: vec3{0.158, 0.14, 0.108}},
	{bone: chest, shape: "sphere", mat: matShirt, at: vec3{0, 0.145, -0.01}, size: vec3{0.075, 0.03, 0.07}}, // hood collar
	{bone: neck, shape: "sphere", mat: matSkin, at: vec3{0, 0.04, 0}, size: vec3{0.048, 0.07, 0.048}},
	{bone: head, shape: "sphere", mat: matSkin, at: vec3{0, 0.17, 0}, size: vec3{0.2, 0.19, 0.19}},
	{bone: head, shape: "sphere", mat: matHair, at: vec3{0, 0.22, -0.03}, size: vec3{0.207, 0.2, 0.205}},
	{bone: head, shape: "sphere", mat: matWisp, at: vec3{0, 0.47, -0.01}, size: vec3{0.042, 0.07, 0.042}},
}

// limbs are the limbs' shapes: capsules of a radius and length, with this many segments
// around; every other part is a scaled unit sphere.
var limbs = map[string]struct {
	radius, length float64
	segments       int
}{
	"upperArm": {0.052, 0.23, 18},
	"foreArm":  {0.043, 0.19, 18},
	"upperLeg": {0.075, 0.34, 20},
	"lowerLeg": {0.062, 0.30, 20},
}

// shapeGeometry is a part's mesh at full detail, or coarse (for the small VRM fixtures).
func shapeGeometry(shape string, coarse bool) geometry {
	l, ok := limbs[shape]
	switch {
	case ok && coarse:
		return capsule(l.radius, l.length, 3, 8)
	case ok:
		return capsule(l.radius, l.length, 5, l.segments)
	case coarse:
		return sphere(6, 10)
	}
	return sphere(14, 22)
}

// addMaterials appends one material per paint, in order (material i is paint i).
func (d *document) addMaterials() {
	for _, p := range paints {
		m := material{Name: p.name, PBRMetallicRoughness: pbr{
			BaseColorFactor: [4]float64{round(linear(p.srgb[0])), round(linear(p.srgb[1])), round(linear(p.srgb[2])), 1},
			RoughnessFactor: p.rough,
		}}
		if p.emissive {
			m.EmissiveFactor = &[3]float64{round(linear(p.srgb[0])), round(linear(p.srgb[1])), round(linear(p.srgb[2]))}
		}
		d.Materials = append(d.Materials, m)
	}
}

// buildAvatar returns the avatar's glTF document: the skeleton with its parts.
func buildAvatar() *document {
	d := newDocument()
	root := addSkeleton(d)
	d.Scenes = []scene{{Name: "Wisp", Nodes: []int{root}}}
	d.addMaterials()
	meshes := map[[2]any]int{}
	meshFor := func(shape string, mat int) int {
		key := [2]any{shape, mat}
		if m, ok := meshes[key]; ok {
			return m
		}
		m := d.addMesh(shape+"-"+paints[mat].name, shapeGeometry(shape, false), mat)
		meshes[key] = m
		return m
	}
	for i, p := range allParts() {
		m := meshFor(p.shape, p.mat)
		n := node{Name: skeleton[p.bone].name + "Part" + itoa(i), Mesh: &m, Translation: vec3p(p.at),
			Scale: vec3p(p.size)}
		if p.tilt != (euler{}) {
			n.Rotation = quatp(p.tilt.quat())
		}
		d.Nodes = append(d.Nodes, n)
		parent := int(p.bone) // bone nodes come first
		d.Nodes[parent].Children = append(d.Nodes[parent].Children, len(d.Nodes)-1)
	}
	face := d.addFace(faceLOD{5, 16}, faceFrame{})
	d.Nodes = append(d.Nodes, node{Name: "Face", Mesh: &face})
	d.Nodes[head].Children = append(d.Nodes[head].Children, len(d.Nodes)-1)
	return d
}

// allParts are the centre parts and each left part with its mirror image.
func allParts() []part {
	parts := append([]part{}, centreParts...)
	for _, p := range leftParts {
		parts = append(parts, p, mirrorPart(p))
	}
	return parts
}

// mirrorPart moves a left-side part to the right side.
func mirrorPart(p part) part {
	p.bone = mirrorBone(p.bone)
	p.at = p.at.mirrorX()
	p.tilt = p.tilt.mirror()
	return p
}

// mirrorBone maps a left bone to its right twin (and centre bones to themselves).
func mirrorBone(b bone) bone {
	switch {
	case b >= shoulderL && b <= handL:
		return b + (shoulderR - shoulderL)
	case b >= upperLegL && b <= footL:
		return b + (upperLegR - upperLegL)
	}
	return b
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
