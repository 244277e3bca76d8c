package avatar

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// The limits of what Validate reads.
const (
	// MaxJSONBytes bounds a model's JSON chunk (a large VRM's is a few MiB).
	MaxJSONBytes = 16 << 20
	// MaxJSONDepth bounds the nesting of its JSON (glTF needs fewer than ten levels).
	MaxJSONDepth = 64
	// MaxImages bounds a model's images (textures).
	MaxImages = 256
)

// Info is what Validate learns of a VRM model.
type Info struct {
	Version string // "1" (VRMC_vrm) or "0" (VRM 0.x)
	Name    string // the model's own name (meta.name, or meta.title in 0.x); may be empty
}

// requiredBones are the humanoid bones both VRM versions require, by their VRM 1.0 names
// (0.x spells them the same).
var requiredBones = []string{
	"hips", "spine", "head",
	"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand",
	"leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
}

// invalid is a refusal: the file is not a VRM model Wisp accepts.
type invalid struct{ why string }

func (e *invalid) Error() string { return "not a VRM model: " + e.why }

func refuse(format string, args ...any) error { return &invalid{fmt.Sprintf(format, args...)} }

// Validate checks that the size bytes of r are a VRM model the page can load without
// fetching anything: a binary glTF 2.0 (magic, version, lengths that agree with the
// size), a JSON chunk that parses within MaxJSONBytes and MaxJSONDepth, the VRMC_vrm
// (1.0) or VRM (0.x) extension with a humanoid whose required bones name existing
// nodes, every index in range, and no buffer or image outside the file (a data: URI is
// fine). A refusal's message says why, starting "not a VRM model: ".
func Validate(r io.ReaderAt, size int64) (Info, error) {
	js, binLen, err := readChunks(r, size)
	if err != nil {
		return Info{}, err
	}
	if d := jsonDepth(js); d > MaxJSONDepth {
		return Info{}, refuse("its JSON is nested more than %d levels deep", MaxJSONDepth)
	}
	var doc document
	if err := json.Unmarshal(js, &doc); err != nil {
		return Info{}, refuse("its JSON does not parse as glTF: %s", shorten(err.Error()))
	}
	if !strings.HasPrefix(doc.Asset.Version, "2.") {
		return Info{}, refuse("glTF version %q, want 2.x", shorten(doc.Asset.Version))
	}
	if err := doc.checkIndices(binLen); err != nil {
		return Info{}, err
	}
	return doc.checkVRM()
}

// readChunks reads the GLB header and returns the JSON chunk and the BIN chunk's length
// (-1 without one).
func readChunks(r io.ReaderAt, size int64) ([]byte, int64, error) {
	if size == 0 {
		return nil, 0, refuse("the file is empty")
	}
	var head [20]byte
	if size < int64(len(head)) {
		return nil, 0, refuse("the file is too short to be a GLB (%d bytes)", size)
	}
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, 0, fmt.Errorf("read the header: %w", err)
	}
	le := binary.LittleEndian
	switch {
	case string(head[:4]) != "glTF":
		return nil, 0, refuse("it is not a binary glTF file (no glTF magic)")
	case le.Uint32(head[4:]) != 2:
		return nil, 0, refuse("GLB version %d, want 2", le.Uint32(head[4:]))
	case int64(le.Uint32(head[8:])) != size:
		return nil, 0, refuse("the header declares %d bytes but the file has %d", le.Uint32(head[8:]), size)
	case string(head[16:20]) != "JSON":
		return nil, 0, refuse("the first chunk is not JSON")
	}
	jsonLen := int64(le.Uint32(head[12:]))
	end := 20 + jsonLen
	switch {
	case jsonLen == 0:
		return nil, 0, refuse("the JSON chunk is empty")
	case end > size:
		return nil, 0, refuse("the JSON chunk (%d bytes) runs past the end of the file", jsonLen)
	case jsonLen > MaxJSONBytes:
		return nil, 0, refuse("the JSON chunk is %d bytes, more than the %d allowed", jsonLen, MaxJSONBytes)
	}
	js := make([]byte, jsonLen)
	if _, err := r.ReadAt(js, 20); err != nil {
		return nil, 0, fmt.Errorf("read the JSON chunk: %w", err)
	}
	binLen := int64(-1)
	if pad := (4 - end%4) % 4; end+pad+8 <= size {
		var ch [8]byte
		if _, err := r.ReadAt(ch[:], end+pad); err != nil {
			return nil, 0, fmt.Errorf("read the second chunk: %w", err)
		}
		if string(ch[4:]) == "BIN\x00" {
			binLen = int64(le.Uint32(ch[:]))
			if end+pad+8+binLen > size {
				return nil, 0, refuse("the BIN chunk (%d bytes) runs past the end of the file", binLen)
			}
		}
	}
	return js, binLen, nil
}

// jsonDepth is the deepest nesting of objects and arrays in js (strings skipped), so a
// bomb of brackets is refused before it is parsed.
func jsonDepth(js []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range js {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// document is what Validate reads of a glTF document; the rest is ignored.
type document struct {
	Asset struct {
		Version string `json:"version"`
	} `json:"asset"`
	ExtensionsUsed []string `json:"extensionsUsed"`
	Extensions     struct {
		VRM1 *vrm1 `json:"VRMC_vrm"`
		VRM0 *vrm0 `json:"VRM"`
	} `json:"extensions"`
	Scenes []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes []struct {
		Children []int `json:"children"`
		Mesh     *int  `json:"mesh"`
		Skin     *int  `json:"skin"`
	} `json:"nodes"`
	Meshes []struct {
		Primitives []struct {
			Attributes map[string]int   `json:"attributes"`
			Indices    *int             `json:"indices"`
			Material   *int             `json:"material"`
			Targets    []map[string]int `json:"targets"`
		} `json:"primitives"`
	} `json:"meshes"`
	Materials []json.RawMessage `json:"materials"`
	Skins     []struct {
		InverseBindMatrices *int  `json:"inverseBindMatrices"`
		Joints              []int `json:"joints"`
		Skeleton            *int  `json:"skeleton"`
	} `json:"skins"`
	Accessors []struct {
		BufferView *int `json:"bufferView"`
	} `json:"accessors"`
	BufferViews []struct {
		Buffer     int   `json:"buffer"`
		ByteOffset int64 `json:"byteOffset"`
		ByteLength int64 `json:"byteLength"`
	} `json:"bufferViews"`
	Buffers []struct {
		URI        string `json:"uri"`
		ByteLength int64  `json:"byteLength"`
	} `json:"buffers"`
	Images []struct {
		URI        string `json:"uri"`
		BufferView *int   `json:"bufferView"`
	} `json:"images"`
	Textures []struct {
		Source *int `json:"source"`
	} `json:"textures"`
}

type vrm1 struct {
	Meta struct {
		Name string `json:"name"`
	} `json:"meta"`
	Humanoid struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	Expressions struct {
		Preset map[string]vrm1Expression `json:"preset"`
		Custom map[string]vrm1Expression `json:"custom"`
	} `json:"expressions"`
}

type vrm1Expression struct {
	MorphTargetBinds []struct {
		Node  int `json:"node"`
		Index int `json:"index"`
	} `json:"morphTargetBinds"`
}

type vrm0 struct {
	Meta struct {
		Title string `json:"title"`
	} `json:"meta"`
	Humanoid struct {
		HumanBones []struct {
			Bone string `json:"bone"`
			Node *int   `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	BlendShapeMaster struct {
		BlendShapeGroups []struct {
			Binds []struct {
				Mesh  int `json:"mesh"`
				Index int `json:"index"`
			} `json:"binds"`
		} `json:"blendShapeGroups"`
	} `json:"blendShapeMaster"`
}

// inRange refuses an index outside [0, n).
func inRange(what string, i, n int) error {
	if i < 0 || i >= n {
		return refuse("%s refers to index %d, but there are %d", what, i, n)
	}
	return nil
}

func optInRange(what string, i *int, n int) error {
	if i == nil {
		return nil
	}
	return inRange(what, *i, n)
}

// checkIndices checks that every reference the loader follows stays inside the file.
func (d *document) checkIndices(binLen int64) error {
	nodes, accessors := len(d.Nodes), len(d.Accessors)
	for _, s := range d.Scenes {
		for _, n := range s.Nodes {
			if err := inRange("a scene", n, nodes); err != nil {
				return err
			}
		}
	}
	for i, n := range d.Nodes {
		for _, c := range n.Children {
			if err := inRange(fmt.Sprintf("node %d's child", i), c, nodes); err != nil {
				return err
			}
		}
		if err := optInRange(fmt.Sprintf("node %d's mesh", i), n.Mesh, len(d.Meshes)); err != nil {
			return err
		}
		if err := optInRange(fmt.Sprintf("node %d's skin", i), n.Skin, len(d.Skins)); err != nil {
			return err
		}
	}
	for i, m := range d.Meshes {
		for _, p := range m.Primitives {
			what := fmt.Sprintf("mesh %d", i)
			for _, a := range p.Attributes {
				if err := inRange(what, a, accessors); err != nil {
					return err
				}
			}
			for _, t := range p.Targets {
				for _, a := range t {
					if err := inRange(what+"'s morph target", a, accessors); err != nil {
						return err
					}
				}
			}
			if err := optInRange(what, p.Indices, accessors); err != nil {
				return err
			}
			if err := optInRange(what+"'s material", p.Material, len(d.Materials)); err != nil {
				return err
			}
		}
	}
	for i, s := range d.Skins {
		what := fmt.Sprintf("skin %d", i)
		for _, j := range s.Joints {
			if err := inRange(what+"'s joint", j, nodes); err != nil {
				return err
			}
		}
		if err := optInRange(what, s.InverseBindMatrices, accessors); err != nil {
			return err
		}
		if err := optInRange(what+"'s skeleton", s.Skeleton, nodes); err != nil {
			return err
		}
	}
	for i, a := range d.Accessors {
		if err := optInRange(fmt.Sprintf("accessor %d", i), a.BufferView, len(d.BufferViews)); err != nil {
			return err
		}
	}
	if err := d.checkBuffers(binLen); err != nil {
		return err
	}
	if len(d.Images) > MaxImages {
		return refuse("it has %d images, more than the %d allowed", len(d.Images), MaxImages)
	}
	for i, img := range d.Images {
		if img.URI != "" && !isData(img.URI) {
			return refuse("image %d refers to an outside file (%s): a VRM must hold everything itself", i, shorten(img.URI))
		}
		if img.URI == "" && img.BufferView == nil {
			return refuse("image %d has neither data nor a buffer view", i)
		}
		if err := optInRange(fmt.Sprintf("image %d", i), img.BufferView, len(d.BufferViews)); err != nil {
			return err
		}
	}
	for i, t := range d.Textures {
		if err := optInRange(fmt.Sprintf("texture %d", i), t.Source, len(d.Images)); err != nil {
			return err
		}
	}
	return nil
}

// checkBuffers refuses buffers outside the file and views past their buffer's end.
func (d *document) checkBuffers(binLen int64) error {
	for i, b := range d.Buffers {
		switch {
		case b.ByteLength < 0:
			return refuse("buffer %d has a negative length", i)
		case b.URI == "" && (i != 0 || binLen < 0):
			return refuse("buffer %d has no data (only the first buffer may be the file's BIN chunk)", i)
		case b.URI == "" && b.ByteLength > binLen:
			return refuse("buffer 0 declares %d bytes but the BIN chunk has %d", b.ByteLength, binLen)
		case b.URI != "" && !isData(b.URI):
			return refuse("buffer %d refers to an outside file (%s): a VRM must hold everything itself", i, shorten(b.URI))
		}
	}
	for i, v := range d.BufferViews {
		if err := inRange(fmt.Sprintf("buffer view %d", i), v.Buffer, len(d.Buffers)); err != nil {
			return err
		}
		if n := d.Buffers[v.Buffer].ByteLength; v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset > n || v.ByteLength > n-v.ByteOffset {
			return refuse("buffer view %d runs past the end of its buffer", i)
		}
	}
	return nil
}

func isData(uri string) bool { return strings.HasPrefix(strings.ToLower(uri), "data:") }

// checkVRM checks the VRM extension: its humanoid and its expressions' bindings.
func (d *document) checkVRM() (Info, error) {
	switch {
	case d.Extensions.VRM1 != nil:
		v := d.Extensions.VRM1
		for _, name := range requiredBones {
			b, ok := v.Humanoid.HumanBones[name]
			if !ok || b.Node == nil {
				return Info{}, refuse("its humanoid has no %s bone", name)
			}
		}
		for name, b := range v.Humanoid.HumanBones {
			if b.Node == nil {
				return Info{}, refuse("the humanoid bone %s names no node", shorten(name))
			}
			if err := inRange("the humanoid bone "+shorten(name), *b.Node, len(d.Nodes)); err != nil {
				return Info{}, err
			}
		}
		for _, group := range []map[string]vrm1Expression{v.Expressions.Preset, v.Expressions.Custom} {
			for name, e := range group {
				for _, b := range e.MorphTargetBinds {
					if err := inRange("the expression "+shorten(name), b.Node, len(d.Nodes)); err != nil {
						return Info{}, err
					}
				}
			}
		}
		return Info{Version: "1", Name: shorten(v.Meta.Name)}, nil
	case d.Extensions.VRM0 != nil:
		v := d.Extensions.VRM0
		have := map[string]bool{}
		for _, b := range v.Humanoid.HumanBones {
			if b.Node == nil {
				return Info{}, refuse("the humanoid bone %s names no node", shorten(b.Bone))
			}
			if err := inRange("the humanoid bone "+shorten(b.Bone), *b.Node, len(d.Nodes)); err != nil {
				return Info{}, err
			}
			have[b.Bone] = true
		}
		for _, name := range requiredBones {
			if !have[name] {
				return Info{}, refuse("its humanoid has no %s bone", name)
			}
		}
		for _, g := range v.BlendShapeMaster.BlendShapeGroups {
			for _, b := range g.Binds {
				if err := inRange("a blend shape", b.Mesh, len(d.Meshes)); err != nil {
					return Info{}, err
				}
			}
		}
		return Info{Version: "0", Name: shorten(v.Meta.Title)}, nil
	}
	return Info{}, refuse("it has no VRMC_vrm (VRM 1.0) or VRM (0.x) extension: a plain glTF model has no humanoid to animate")
}
