package main

import (
	"encoding/binary"
	"math"
)

// The VRM fixtures: Wisp's own character as a VRM model, so a test that loads one sees
// a familiar figure, and a wrong retargeting shows at a glance. Unlike the built-in
// avatar, a VRM stands in a T-pose (arms out along X) with every bone's rotation the
// identity, and its parts are one skinned mesh; its bones have VRoid-like names, so only
// the humanoid mapping (not a name) can animate them.
//
// VRM 1.0 faces +Z, like the built-in avatar; VRM 0.x faces -Z, so its model is turned
// half a turn about Y.

// vrmBoneNames are the bones' node names in a VRM and their humanoid names.
var vrmBoneNames = [boneCount]struct{ node, humanoid string }{
	hips: {"J_Bip_C_Hips", "hips"}, spine: {"J_Bip_C_Spine", "spine"}, chest: {"J_Bip_C_Chest", "chest"},
	neck: {"J_Bip_C_Neck", "neck"}, head: {"J_Bip_C_Head", "head"},
	shoulderL: {"J_Bip_L_Shoulder", "leftShoulder"}, upperArmL: {"J_Bip_L_UpperArm", "leftUpperArm"},
	foreArmL: {"J_Bip_L_LowerArm", "leftLowerArm"}, handL: {"J_Bip_L_Hand", "leftHand"},
	shoulderR: {"J_Bip_R_Shoulder", "rightShoulder"}, upperArmR: {"J_Bip_R_UpperArm", "rightUpperArm"},
	foreArmR: {"J_Bip_R_LowerArm", "rightLowerArm"}, handR: {"J_Bip_R_Hand", "rightHand"},
	upperLegL: {"J_Bip_L_UpperLeg", "leftUpperLeg"}, lowerLegL: {"J_Bip_L_LowerLeg", "leftLowerLeg"},
	footL:     {"J_Bip_L_Foot", "leftFoot"},
	upperLegR: {"J_Bip_R_UpperLeg", "rightUpperLeg"}, lowerLegR: {"J_Bip_R_LowerLeg", "rightLowerLeg"},
	footR: {"J_Bip_R_Foot", "rightFoot"},
}

// tPoseTurn is how a bone is turned in the T-pose relative to the built-in rest pose:
// the arms swing up from hanging down to pointing out.
func tPoseTurn(b bone) quat {
	switch b {
	case upperArmL, foreArmL, handL:
		return axisAngle(vec3{0, 0, 1}, math.Pi/2)
	case upperArmR, foreArmR, handR:
		return axisAngle(vec3{0, 0, 1}, -math.Pi/2)
	}
	return identity
}

// tPoseOffset is a bone's offset from its parent in the T-pose.
func tPoseOffset(b bone) vec3 {
	if p := skeleton[b].parent; p >= 0 {
		return tPoseTurn(p).rotate(skeleton[b].offset)
	}
	return skeleton[b].offset
}

// tPosePosition is a bone's position in model space in the T-pose.
func tPosePosition(b bone) vec3 {
	p := vec3{}
	for ; b >= 0; b = skeleton[b].parent {
		p = p.add(tPoseOffset(b))
	}
	return p
}

// vrmPresets pairs each VRM 1.0 expression preset with VRM 0.x's blend shape group
// (name, preset) for the face's targets; 0.x has no surprised preset, so it is a
// custom group.
var vrmPresets = []struct{ target, name0, preset0 string }{
	{"aa", "A", "a"}, {"ih", "I", "i"}, {"ou", "U", "u"}, {"ee", "E", "e"}, {"oh", "O", "o"},
	{"blink", "Blink", "blink"}, {"blinkLeft", "Blink_L", "blink_l"}, {"blinkRight", "Blink_R", "blink_r"},
	{"happy", "Joy", "joy"}, {"angry", "Angry", "angry"}, {"sad", "Sorrow", "sorrow"}, {"relaxed", "Fun", "fun"},
	{"surprised", "Surprised", "unknown"},
	{"lookUp", "LookUp", "lookup"}, {"lookDown", "LookDown", "lookdown"}, {"lookLeft", "LookLeft", "lookleft"},
	{"lookRight", "LookRight", "lookright"},
}

// buildVRM returns the character as a VRM model: spec "1.0" (VRMC_vrm) or "0.0" (VRM).
func buildVRM(spec string) *document {
	d := newDocument()
	fr := faceFrame{turn: spec == "0.0"}
	first := len(d.Nodes)
	for b := range boneCount {
		d.Nodes = append(d.Nodes, node{Name: vrmBoneNames[b].node, Translation: vec3p(fr.dir(tPoseOffset(b)))})
	}
	for b, def := range skeleton {
		if def.parent >= 0 {
			p := first + int(def.parent)
			d.Nodes[p].Children = append(d.Nodes[p].Children, first+b)
		}
	}
	d.addMaterials()
	skinAttrs := func(b bone) func(n int) map[string]int {
		return func(n int) map[string]int {
			joints, weights := make([]byte, 4*n), make([]byte, 4*n)
			for i := range n {
				joints[4*i], weights[4*i] = byte(b), 255
			}
			return map[string]int{"JOINTS_0": d.bytesVec4(joints, false), "WEIGHTS_0": d.bytesVec4(weights, true)}
		}
	}
	// the body: every part, placed in the T-pose, skinned rigidly to its bone
	byMat := map[int][]part{}
	for _, p := range allParts() {
		byMat[p.mat] = append(byMat[p.mat], p)
	}
	body := mesh{Name: "Body"}
	for mat := range matCount {
		parts := byMat[mat]
		if len(parts) == 0 {
			continue
		}
		var g geometry
		var joints []byte
		for _, p := range parts {
			turn, at := tPoseTurn(p.bone), tPosePosition(p.bone)
			tilt := p.tilt.quat()
			shape := shapeGeometry(p.shape, true)
			base := uint16(len(g.pos))
			for i, v := range shape.pos {
				local := p.at.add(tilt.rotate(v.mul(p.size)))
				g.pos = append(g.pos, fr.point(at.add(turn.rotate(local))))
				n := shape.nrm[i]
				g.nrm = append(g.nrm, fr.dir(turn.rotate(tilt.rotate(vec3{n.X / p.size.X, n.Y / p.size.Y, n.Z / p.size.Z}))).norm())
				joints = append(joints, byte(p.bone), 0, 0, 0)
			}
			for _, i := range shape.idx {
				g.idx = append(g.idx, base+i)
			}
		}
		prim := d.primitive(g, mat)
		weights := make([]byte, len(joints))
		for i := 0; i < len(weights); i += 4 {
			weights[i] = 255
		}
		prim.Attributes["JOINTS_0"] = d.bytesVec4(joints, false)
		prim.Attributes["WEIGHTS_0"] = d.bytesVec4(weights, true)
		body.Primitives = append(body.Primitives, prim)
	}
	d.Meshes = append(d.Meshes, body)
	bodyMesh := len(d.Meshes) - 1
	fr.at = fr.dir(tPosePosition(head))
	fr.skin = skinAttrs(head)
	faceMesh := d.addFace(faceLOD{3, 10}, fr)

	// the skin: bind matrices undo each bone's T-pose position (no bone is rotated)
	var ibm []float64
	var joints []int
	for b := range boneCount {
		p := fr.dir(tPosePosition(b))
		ibm = append(ibm, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, round(-p.X), round(-p.Y), round(-p.Z), 1)
		joints = append(joints, first+int(b))
	}
	d.Skins = []skin{{Name: "Body", InverseBindMatrices: d.floats(ibm, "MAT4", 0), Joints: joints, Skeleton: first + int(hips)}}
	skinIndex := 0
	d.Nodes = append(d.Nodes, node{Name: "Body", Mesh: &bodyMesh, Skin: &skinIndex})
	d.Nodes = append(d.Nodes, node{Name: "Face", Mesh: &faceMesh, Skin: &skinIndex})
	bodyNode, faceNode := len(d.Nodes)-2, len(d.Nodes)-1
	d.Scenes = []scene{{Name: "Wisp", Nodes: []int{first + int(hips), bodyNode, faceNode}}}
	if spec == "0.0" {
		d.ExtensionsUsed = []string{"VRM"}
		d.Extensions = map[string]any{"VRM": vrm0Extension(first, faceMesh)}
	} else {
		d.ExtensionsUsed = []string{"VRMC_vrm"}
		d.Extensions = map[string]any{"VRMC_vrm": vrm1Extension(first, faceNode)}
	}
	return d
}

// vrm1Extension is VRMC_vrm: meta, humanoid, expressions bound to the face's morph
// targets, and a look-at driven by the look* expressions.
func vrm1Extension(first, faceNode int) map[string]any {
	bones := map[string]any{}
	for b := range boneCount {
		bones[vrmBoneNames[b].humanoid] = map[string]int{"node": first + int(b)}
	}
	preset := map[string]any{"neutral": map[string]any{}}
	for _, p := range vrmPresets {
		preset[p.target] = map[string]any{
			"morphTargetBinds": []any{map[string]any{"node": faceNode, "index": targetIndex(p.target), "weight": 1}},
			"isBinary":         false, "overrideBlink": "none", "overrideLookAt": "none", "overrideMouth": "none",
		}
	}
	rangeMap := map[string]any{"inputMaxValue": 90, "outputScale": 1}
	return map[string]any{
		"specVersion": "1.0",
		"meta": map[string]any{
			"name": "Wisp test character", "version": "1", "authors": []string{"Wisp"},
			"licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "everyone",
			"commercialUsage": "personalNonProfit", "creditNotation": "unnecessary", "modification": "allowModificationRedistribution",
			"allowExcessivelyViolentUsage": false, "allowExcessivelySexualUsage": false,
			"allowPoliticalOrReligiousUsage": false, "allowAntisocialOrHateUsage": false, "allowRedistribution": true,
		},
		"humanoid":    map[string]any{"humanBones": bones},
		"expressions": map[string]any{"preset": preset},
		"lookAt": map[string]any{"type": "expression", "offsetFromHeadBone": []float64{0, 0.15, 0.1},
			"rangeMapHorizontalInner": rangeMap, "rangeMapHorizontalOuter": rangeMap,
			"rangeMapVerticalDown": rangeMap, "rangeMapVerticalUp": rangeMap},
	}
}

// vrm0Extension is VRM 0.x's VRM extension: meta, humanoid, blend shape groups bound to
// the face mesh, first person and an empty secondary animation.
func vrm0Extension(first, faceMesh int) map[string]any {
	var bones []any
	for b := range boneCount {
		bones = append(bones, map[string]any{"bone": vrmBoneNames[b].humanoid, "node": first + int(b), "useDefaultValues": true})
	}
	groups := []any{map[string]any{"name": "Neutral", "presetName": "neutral", "binds": []any{}, "materialValues": []any{}, "isBinary": false}}
	for _, p := range vrmPresets {
		groups = append(groups, map[string]any{"name": p.name0, "presetName": p.preset0, "isBinary": false,
			"binds":          []any{map[string]any{"mesh": faceMesh, "index": targetIndex(p.target), "weight": 100}},
			"materialValues": []any{}})
	}
	curve := map[string]any{"curve": []float64{0, 0, 0, 1, 1, 1, 1, 0}, "xRange": 90, "yRange": 1}
	return map[string]any{
		"exporterVersion": "wisp-emotegen", "specVersion": "0.0",
		"meta": map[string]any{
			"title": "Wisp test character (VRM 0.x)", "version": "1", "author": "Wisp",
			"allowedUserName": "Everyone", "violentUssageName": "Disallow", "sexualUssageName": "Disallow",
			"commercialUssageName": "Disallow", "licenseName": "CC0",
		},
		"humanoid": map[string]any{"humanBones": bones, "armStretch": 0.05, "legStretch": 0.05,
			"upperArmTwist": 0.5, "lowerArmTwist": 0.5, "upperLegTwist": 0.5, "lowerLegTwist": 0.5,
			"feetSpacing": 0, "hasTranslationDoF": false},
		"firstPerson": map[string]any{"firstPersonBone": first + int(head),
			"firstPersonBoneOffset": map[string]float64{"x": 0, "y": 0.15, "z": 0}, "meshAnnotations": []any{},
			"lookAtTypeName": "BlendShape", "lookAtHorizontalInner": curve, "lookAtHorizontalOuter": curve,
			"lookAtVerticalDown": curve, "lookAtVerticalUp": curve},
		"blendShapeMaster":   map[string]any{"blendShapeGroups": groups},
		"secondaryAnimation": map[string]any{"boneGroups": []any{}, "colliderGroups": []any{}},
		"materialProperties": []any{},
	}
}

func targetIndex(name string) int {
	for i, t := range faceTargets {
		if t == name {
			return i
		}
	}
	panic("no face target " + name)
}

// brokenVRM is a file that starts like a VRM and is not one: a GLB header and a JSON
// chunk cut off in the middle of the document.
func brokenVRM() []byte {
	js := []byte(`{"asset":{"version":"2.0","generator":"wisp emotegen"},"extensionsUsed":["VRMC_vrm"],"extensions":{"VRMC_vrm":{"specVersion":"1.0","meta":{"name":"Bro`)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	out := []byte("glTF")
	out = binary.LittleEndian.AppendUint32(out, 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(20+len(js)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(js)))
	out = append(out, "JSON"...)
	return append(out, js...)
}

// buildFixtures returns the VRM fixtures by file name.
func buildFixtures() (map[string][]byte, error) {
	files := map[string][]byte{"broken.vrm": brokenVRM()}
	for name, spec := range map[string]string{"wisp-test.vrm": "1.0", "wisp-test-0x.vrm": "0.0"} {
		data, err := buildVRM(spec).glb()
		if err != nil {
			return nil, err
		}
		files[name] = data
	}
	return files, nil
}
