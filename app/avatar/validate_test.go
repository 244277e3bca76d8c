package avatar

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// glb packs a JSON document and a BIN chunk as a binary glTF file.
func glb(t testing.TB, doc any, bin []byte) []byte {
	t.Helper()
	js, ok := doc.([]byte)
	if !ok {
		var err error
		if js, err = json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	var b bytes.Buffer
	le := binary.LittleEndian
	total := 12 + 8 + len(js)
	if bin != nil {
		total += 8 + len(bin)
	}
	b.WriteString("glTF")
	_ = binary.Write(&b, le, uint32(2))
	_ = binary.Write(&b, le, uint32(total))
	_ = binary.Write(&b, le, uint32(len(js)))
	b.WriteString("JSON")
	b.Write(js)
	if bin != nil {
		_ = binary.Write(&b, le, uint32(len(bin)))
		b.WriteString("BIN\x00")
		b.Write(bin)
	}
	return b.Bytes()
}

// vrmDoc is a minimal VRM document of the given version ("0" or "1"): one node per
// humanoid bone, one 8-byte buffer in the BIN chunk. edit changes it before encoding.
func vrmDoc(version string, edit func(doc map[string]any)) map[string]any {
	var nodes []any
	bones1 := map[string]any{}
	var bones0 []any
	for i, b := range requiredBones {
		nodes = append(nodes, map[string]any{"name": b})
		bones1[b] = map[string]any{"node": i}
		bones0 = append(bones0, map[string]any{"bone": b, "node": i})
	}
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0"},
		"scenes":      []any{map[string]any{"nodes": []int{0}}},
		"nodes":       nodes,
		"buffers":     []any{map[string]any{"byteLength": 8}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteOffset": 0, "byteLength": 8}},
		"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR"}},
	}
	if version == "1" {
		doc["extensionsUsed"] = []string{"VRMC_vrm"}
		doc["extensions"] = map[string]any{"VRMC_vrm": map[string]any{"specVersion": "1.0",
			"meta":     map[string]any{"name": "Tester"},
			"humanoid": map[string]any{"humanBones": bones1}}}
	} else {
		doc["extensionsUsed"] = []string{"VRM"}
		doc["extensions"] = map[string]any{"VRM": map[string]any{"specVersion": "0.0",
			"meta":     map[string]any{"title": "Old tester"},
			"humanoid": map[string]any{"humanBones": bones0}}}
	}
	if edit != nil {
		edit(doc)
	}
	return doc
}

func validVRM(t testing.TB, version string, edit func(map[string]any)) []byte {
	return glb(t, vrmDoc(version, edit), make([]byte, 8))
}

func validate(data []byte) (Info, error) { return Validate(bytes.NewReader(data), int64(len(data))) }

func TestValidateAccepts(t *testing.T) {
	for _, v := range []string{"0", "1"} {
		info, err := validate(validVRM(t, v, nil))
		if err != nil {
			t.Fatalf("VRM %s: %v", v, err)
		}
		if info.Version != v || info.Name == "" {
			t.Errorf("VRM %s: %+v", v, info)
		}
	}
	// data: URIs stay inside the file
	data := validVRM(t, "1", func(d map[string]any) {
		d["buffers"] = []any{map[string]any{"byteLength": 8}, map[string]any{"byteLength": 3, "uri": "data:application/octet-stream;base64,AAAA"}}
		d["images"] = []any{map[string]any{"uri": "data:image/png;base64,iVBORw0KGgo="}}
	})
	if _, err := validate(data); err != nil {
		t.Errorf("data URIs: %v", err)
	}
}

// The committed fixtures the e2e tests load are accepted, and the broken one refused.
func TestValidateFixtures(t *testing.T) {
	for file, want := range map[string]string{"wisp-test.vrm": "1", "wisp-test-0x.vrm": "0", "broken.vrm": ""} {
		data, err := os.ReadFile("../../frontend/e2e/fixtures/" + file)
		if err != nil {
			t.Fatal(err)
		}
		info, err := validate(data)
		switch {
		case want == "" && err == nil:
			t.Errorf("%s accepted", file)
		case want != "" && err != nil:
			t.Errorf("%s: %v", file, err)
		case want != "" && info.Version != want:
			t.Errorf("%s: version %q, want %q", file, info.Version, want)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	ok := validVRM(t, "1", nil)
	le := binary.LittleEndian
	withHeader := func(at int, v uint32) []byte {
		b := bytes.Clone(ok)
		le.PutUint32(b[at:], v)
		return b
	}
	deep := []byte(`{"asset":{"version":"2.0"},"x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`)
	plain := vrmDoc("1", func(d map[string]any) { delete(d, "extensions"); delete(d, "extensionsUsed") })
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty"},
		{"short", ok[:10], "too short"},
		{"not glb", append([]byte("{\"asset\""), ok[8:]...), "no glTF magic"},
		{"version 1", withHeader(4, 1), "GLB version 1"},
		{"length lies", withHeader(8, uint32(len(ok)+4)), "declares"},
		{"truncated", ok[:len(ok)-6], "declares"},
		{"4 GB JSON chunk", withHeader(12, 0xFFFFFFF0), "runs past"},
		{"JSON bomb", glb(t, deep, nil), "nested more than"},
		{"garbage JSON", glb(t, []byte(`{"asset": {"version": "2.0"`), nil), "does not parse"},
		{"gltf 1", validVRM(t, "1", func(d map[string]any) { d["asset"] = map[string]any{"version": "1.0"} }), "glTF version"},
		{"plain glTF", glb(t, plain, make([]byte, 8)), "no VRMC_vrm"},
		{"file uri", validVRM(t, "1", func(d map[string]any) {
			d["buffers"] = []any{map[string]any{"byteLength": 8, "uri": "file:///etc/passwd"}}
		}), "outside file (file:///etc/passwd)"},
		{"http image", validVRM(t, "1", func(d map[string]any) {
			d["images"] = []any{map[string]any{"uri": "http://example.com/skin.png"}}
		}), "outside file"},
		{"relative image", validVRM(t, "0", func(d map[string]any) {
			d["images"] = []any{map[string]any{"uri": "skin.png"}}
		}), "outside file"},
		{"bone out of range", validVRM(t, "1", func(d map[string]any) {
			d["extensions"].(map[string]any)["VRMC_vrm"].(map[string]any)["humanoid"].(map[string]any)["humanBones"].(map[string]any)["head"] = map[string]any{"node": 999}
		}), "humanoid bone head refers to index 999"},
		{"0.x bone out of range", validVRM(t, "0", func(d map[string]any) {
			h := d["extensions"].(map[string]any)["VRM"].(map[string]any)["humanoid"].(map[string]any)
			h["humanBones"] = append(h["humanBones"].([]any), map[string]any{"bone": "neck", "node": -1})
		}), "humanoid bone neck refers to index -1"},
		{"missing bone", validVRM(t, "1", func(d map[string]any) {
			delete(d["extensions"].(map[string]any)["VRMC_vrm"].(map[string]any)["humanoid"].(map[string]any)["humanBones"].(map[string]any), "leftFoot")
		}), "no leftFoot bone"},
		{"child out of range", validVRM(t, "1", func(d map[string]any) {
			d["nodes"].([]any)[0].(map[string]any)["children"] = []int{40}
		}), "node 0's child"},
		{"skin joint out of range", validVRM(t, "1", func(d map[string]any) {
			d["skins"] = []any{map[string]any{"joints": []int{0, 77}}}
		}), "skin 0's joint"},
		{"view past buffer", validVRM(t, "1", func(d map[string]any) {
			d["bufferViews"] = []any{map[string]any{"buffer": 0, "byteOffset": 4, "byteLength": 8}}
		}), "runs past the end of its buffer"},
		{"view overflow", validVRM(t, "1", func(d map[string]any) {
			d["bufferViews"] = []any{map[string]any{"buffer": 0, "byteOffset": int64(1) << 62, "byteLength": int64(1) << 62}}
		}), "runs past the end of its buffer"},
		{"buffer past BIN", validVRM(t, "1", func(d map[string]any) {
			d["buffers"] = []any{map[string]any{"byteLength": 4096}}
		}), "BIN chunk has 8"},
		{"expression node out of range", validVRM(t, "1", func(d map[string]any) {
			d["extensions"].(map[string]any)["VRMC_vrm"].(map[string]any)["expressions"] = map[string]any{
				"preset": map[string]any{"aa": map[string]any{"morphTargetBinds": []any{map[string]any{"node": 500, "index": 0, "weight": 1}}}}}
		}), "expression aa"},
	}
	for _, c := range cases {
		_, err := validate(c.data)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "not a VRM model: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, err, c.want)
		}
	}
}

func TestJSONDepth(t *testing.T) {
	for js, want := range map[string]int{`{}`: 1, `{"a":[1,{"b":"[[[["}]}`: 3, `"\"{"`: 0, `[[],[[]]]`: 3} {
		if got := jsonDepth([]byte(js)); got != want {
			t.Errorf("%s: depth %d, want %d", js, got, want)
		}
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(validVRM(f, "1", nil))
	f.Add(validVRM(f, "0", nil))
	f.Add([]byte("glTF\x02\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00JSON"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := validate(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "not a VRM model: ") {
				t.Fatalf("a refusal without the prefix: %v", err)
			}
			return
		}
		if info.Version != "0" && info.Version != "1" {
			t.Fatalf("accepted with version %q", info.Version)
		}
	})
}
