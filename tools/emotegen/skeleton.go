package main

// bone indexes the avatar's skeleton. Every clip animates these nodes by name.
type bone int

const (
	hips bone = iota
	spine
	chest
	neck
	head
	shoulderL
	upperArmL
	foreArmL
	handL
	shoulderR
	upperArmR
	foreArmR
	handR
	upperLegL
	lowerLegL
	footL
	upperLegR
	lowerLegR
	footR
	boneCount
)

// boneDef is a bone's name, parent and rest offset from its parent. At rest every bone
// has no rotation: the character stands with its arms down, facing +Z, feet at y=0.
type boneDef struct {
	name   string
	parent bone // -1 for the root
	offset vec3
}

var skeleton = [boneCount]boneDef{
	hips:      {"Hips", -1, vec3{0, 0.80, 0}},
	spine:     {"Spine", hips, vec3{0, 0.10, 0}},
	chest:     {"Chest", spine, vec3{0, 0.16, 0}},
	neck:      {"Neck", chest, vec3{0, 0.16, 0}},
	head:      {"Head", neck, vec3{0, 0.06, 0}},
	shoulderL: {"ShoulderL", chest, vec3{0.08, 0.12, 0}},
	upperArmL: {"UpperArmL", shoulderL, vec3{0.11, 0, 0}},
	foreArmL:  {"ForeArmL", upperArmL, vec3{0, -0.23, 0}},
	handL:     {"HandL", foreArmL, vec3{0, -0.21, 0}},
	shoulderR: {"ShoulderR", chest, vec3{-0.08, 0.12, 0}},
	upperArmR: {"UpperArmR", shoulderR, vec3{-0.11, 0, 0}},
	foreArmR:  {"ForeArmR", upperArmR, vec3{0, -0.23, 0}},
	handR:     {"HandR", foreArmR, vec3{0, -0.21, 0}},
	upperLegL: {"UpperLegL", hips, vec3{0.09, -0.05, 0}},
	lowerLegL: {"LowerLegL", upperLegL, vec3{0, -0.34, 0}},
	footL:     {"FootL", lowerLegL, vec3{0, -0.33, 0}},
	upperLegR: {"UpperLegR", hips, vec3{-0.09, -0.05, 0}},
	lowerLegR: {"LowerLegR", upperLegR, vec3{0, -0.34, 0}},
	footR:     {"FootR", lowerLegR, vec3{0, -0.33, 0}},
}

// restPosition is a bone's position in model space at rest.
func restPosition(b bone) vec3 {
	p := vec3{}
	for ; b >= 0; b = skeleton[b].parent {
		p = p.add(skeleton[b].offset)
	}
	return p
}

// addSkeleton appends the bone nodes to the document (bone i is node first+i) and links
// them into a tree. It returns the root's node index.
func addSkeleton(d *document) int {
	first := len(d.Nodes)
	for _, b := range skeleton {
		d.Nodes = append(d.Nodes, node{Name: b.name, Translation: vec3p(b.offset)})
	}
	for i, b := range skeleton {
		if b.parent >= 0 {
			p := first + int(b.parent)
			d.Nodes[p].Children = append(d.Nodes[p].Children, first+i)
		}
	}
	return first + int(hips)
}
