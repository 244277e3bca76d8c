package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
)

// The subset of glTF 2.0 that Wisp's avatar and clips use. Field order is fixed, so the
// same document always encodes to the same bytes.

type document struct {
	Asset          asset          `json:"asset"`
	ExtensionsUsed []string       `json:"extensionsUsed,omitempty"`
	Extensions     map[string]any `json:"extensions,omitempty"`
	Scene          int            `json:"scene"`
	Scenes         []scene        `json:"scenes"`
	Nodes          []node         `json:"nodes"`
	Meshes         []mesh         `json:"meshes,omitempty"`
	Materials      []material     `json:"materials,omitempty"`
	Animations     []animation    `json:"animations,omitempty"`
	Accessors      []accessor     `json:"accessors"`
	BufferViews    []bufferView   `json:"bufferViews"`
	Buffers        []buffer       `json:"buffers"`
	Skins          []skin         `json:"skins,omitempty"`

	bin bytes.Buffer
}

type asset struct {
	Version   string `json:"version"`
	Generator string `json:"generator"`
}

type scene struct {
	Name  string `json:"name"`
	Nodes []int  `json:"nodes"`
}

type node struct {
	Name        string      `json:"name"`
	Children    []int       `json:"children,omitempty"`
	Mesh        *int        `json:"mesh,omitempty"`
	Skin        *int        `json:"skin,omitempty"`
	Translation *[3]float64 `json:"translation,omitempty"`
	Rotation    *[4]float64 `json:"rotation,omitempty"`
	Scale       *[3]float64 `json:"scale,omitempty"`
}

type mesh struct {
	Name       string      `json:"name"`
	Primitives []primitive `json:"primitives"`
	Weights    []float64   `json:"weights,omitempty"`
	Extras     *meshExtras `json:"extras,omitempty"`
}

// meshExtras names the morph targets, which three.js reads into morphTargetDictionary.
type meshExtras struct {
	TargetNames []string `json:"targetNames"`
}

type primitive struct {
	Attributes map[string]int   `json:"attributes"`
	Indices    int              `json:"indices"`
	Material   int              `json:"material"`
	Targets    []map[string]int `json:"targets,omitempty"`
}

// skin binds a mesh's vertices to joint nodes.
type skin struct {
	Name                string `json:"name"`
	InverseBindMatrices int    `json:"inverseBindMatrices"`
	Joints              []int  `json:"joints"`
	Skeleton            int    `json:"skeleton"`
}

type material struct {
	Name                 string      `json:"name"`
	PBRMetallicRoughness pbr         `json:"pbrMetallicRoughness"`
	EmissiveFactor       *[3]float64 `json:"emissiveFactor,omitempty"`
}

type pbr struct {
	BaseColorFactor [4]float64 `json:"baseColorFactor"`
	MetallicFactor  float64    `json:"metallicFactor"`
	RoughnessFactor float64    `json:"roughnessFactor"`
}

type animation struct {
	Name     string    `json:"name"`
	Channels []channel `json:"channels"`
	Samplers []sampler `json:"samplers"`
}

type channel struct {
	Sampler int    `json:"sampler"`
	Target  target `json:"target"`
}

type target struct {
	Node int    `json:"node"`
	Path string `json:"path"`
}

type sampler struct {
	Input         int    `json:"input"`
	Interpolation string `json:"interpolation"`
	Output        int    `json:"output"`
}

type accessor struct {
	BufferView    *int      `json:"bufferView,omitempty"` // nil: all zeros
	ByteOffset    int       `json:"byteOffset,omitempty"`
	ComponentType int       `json:"componentType"`
	Normalized    bool      `json:"normalized,omitempty"`
	Count         int       `json:"count"`
	Type          string    `json:"type"`
	Min           []float64 `json:"min,omitempty"`
	Max           []float64 `json:"max,omitempty"`
}

type bufferView struct {
	Buffer     int `json:"buffer"`
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
	Target     int `json:"target,omitempty"`
}

type buffer struct {
	ByteLength int `json:"byteLength"`
}

const (
	componentFloat  = 5126
	componentUint16 = 5123
	componentUint8  = 5121
	targetArray     = 34962
	targetElements  = 34963
)

func newDocument() *document {
	return &document{Asset: asset{Version: "2.0", Generator: "wisp emotegen"}}
}

// view appends raw bytes to the binary chunk, 4-byte aligned, and returns its view index.
func (d *document) view(data []byte, target int) int {
	for d.bin.Len()%4 != 0 {
		d.bin.WriteByte(0)
	}
	d.BufferViews = append(d.BufferViews, bufferView{ByteOffset: d.bin.Len(), ByteLength: len(data), Target: target})
	d.bin.Write(data)
	return len(d.BufferViews) - 1
}

// floats stores float32 values as an accessor of the given type ("SCALAR", "VEC3", ...)
// with its per-component min and max, which glTF requires for positions and key times.
func (d *document) floats(values []float64, typ string, target int) int {
	n := map[string]int{"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[typ]
	raw := make([]byte, 4*len(values))
	lo, hi := make([]float64, n), make([]float64, n)
	for i, v := range values {
		f := float32(v)
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
		c := i % n
		if i < n || float64(f) < lo[c] {
			lo[c] = float64(f)
		}
		if i < n || float64(f) > hi[c] {
			hi[c] = float64(f)
		}
	}
	v := d.view(raw, target)
	d.Accessors = append(d.Accessors, accessor{BufferView: &v, ComponentType: componentFloat,
		Count: len(values) / n, Type: typ, Min: lo, Max: hi})
	return len(d.Accessors) - 1
}

func (d *document) indices(idx []uint16) int {
	raw := make([]byte, 2*len(idx))
	for i, v := range idx {
		binary.LittleEndian.PutUint16(raw[2*i:], v)
	}
	v := d.view(raw, targetElements)
	d.Accessors = append(d.Accessors, accessor{BufferView: &v, ComponentType: componentUint16, Count: len(idx), Type: "SCALAR"})
	return len(d.Accessors) - 1
}

// zeros is an accessor of count VEC3 zeros with no data behind it (glTF reads a missing
// bufferView as zeros): the morph target of a primitive the target does not move.
func (d *document) zeros(count int) int {
	d.Accessors = append(d.Accessors, accessor{ComponentType: componentFloat, Count: count, Type: "VEC3",
		Min: []float64{0, 0, 0}, Max: []float64{0, 0, 0}})
	return len(d.Accessors) - 1
}

// bytesVec4 stores unsigned bytes as a VEC4 accessor (joints, or normalized weights).
func (d *document) bytesVec4(values []byte, normalized bool) int {
	v := d.view(values, targetArray)
	d.Accessors = append(d.Accessors, accessor{BufferView: &v, ComponentType: componentUint8,
		Normalized: normalized, Count: len(values) / 4, Type: "VEC4"})
	return len(d.Accessors) - 1
}

// glb encodes the document as binary glTF: header, JSON chunk (space padded), BIN chunk.
func (d *document) glb() ([]byte, error) {
	for d.bin.Len()%4 != 0 {
		d.bin.WriteByte(0)
	}
	d.Buffers = []buffer{{ByteLength: d.bin.Len()}}
	js, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var out bytes.Buffer
	total := 12 + 8 + len(js) + 8 + d.bin.Len()
	le := binary.LittleEndian
	out.Write([]byte("glTF"))
	_ = binary.Write(&out, le, uint32(2))
	_ = binary.Write(&out, le, uint32(total))
	_ = binary.Write(&out, le, uint32(len(js)))
	out.Write([]byte("JSON"))
	out.Write(js)
	_ = binary.Write(&out, le, uint32(d.bin.Len()))
	out.Write([]byte("BIN\x00"))
	out.Write(d.bin.Bytes())
	return out.Bytes(), nil
}

func vec3p(v vec3) *[3]float64 { return &[3]float64{round(v.X), round(v.Y), round(v.Z)} }

func quatp(q quat) *[4]float64 {
	return &[4]float64{round(q.X), round(q.Y), round(q.Z), round(q.W)}
}

// round keeps six decimals, so the JSON does not depend on the last bits of the math.
func round(v float64) float64 { return math.Round(v*1e6) / 1e6 }
