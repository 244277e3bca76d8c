package emotes

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// GLBInfo is what Inspect learns from a binary glTF file.
type GLBInfo struct {
	Version    uint32
	Length     uint32 // the total length the header declares
	Animations int
	Nodes      int
	Meshes     int
	Duration   float64 // the longest animation, in seconds (0 without animations)
}

const (
	glbMagic     = 0x46546C67 // "glTF"
	chunkJSON    = 0x4E4F534A // "JSON"
	glbHeaderLen = 12
)

// Inspect checks that data starts a valid GLB (magic, version 2, a JSON chunk that
// parses) and reads its animations. data may be just the file's head, as long as it
// holds the whole JSON chunk. Animation lengths come from the accessors' max values,
// which glTF requires for animation inputs.
func Inspect(data []byte) (GLBInfo, error) {
	var info GLBInfo
	if len(data) < glbHeaderLen+8 {
		return info, errors.New("too short to be a GLB file")
	}
	le := binary.LittleEndian
	if le.Uint32(data) != glbMagic {
		return info, errors.New("not a GLB file (no glTF magic)")
	}
	info.Version, info.Length = le.Uint32(data[4:]), le.Uint32(data[8:])
	if info.Version != 2 {
		return info, fmt.Errorf("GLB version %d, want 2", info.Version)
	}
	jsonLen, kind := le.Uint32(data[12:]), le.Uint32(data[16:])
	if kind != chunkJSON {
		return info, errors.New("the first chunk is not JSON")
	}
	end := uint64(glbHeaderLen+8) + uint64(jsonLen)
	if end > uint64(info.Length) {
		return info, errors.New("the JSON chunk runs past the declared length")
	}
	if end > uint64(len(data)) {
		return info, errors.New("the JSON chunk is cut short")
	}
	var doc struct {
		Nodes      []json.RawMessage         `json:"nodes"`
		Meshes     []json.RawMessage         `json:"meshes"`
		Accessors  []struct{ Max []float64 } `json:"accessors"`
		Animations []struct {
			Samplers []struct{ Input int } `json:"samplers"`
		} `json:"animations"`
	}
	if err := json.Unmarshal(data[glbHeaderLen+8:end], &doc); err != nil {
		return info, fmt.Errorf("the JSON chunk: %w", err)
	}
	info.Nodes, info.Meshes, info.Animations = len(doc.Nodes), len(doc.Meshes), len(doc.Animations)
	for i, a := range doc.Animations {
		if len(a.Samplers) == 0 {
			return info, fmt.Errorf("animation %d has no samplers", i)
		}
		for _, s := range a.Samplers {
			if s.Input < 0 || s.Input >= len(doc.Accessors) || len(doc.Accessors[s.Input].Max) == 0 {
				return info, fmt.Errorf("animation %d: its key times have no max", i)
			}
			info.Duration = max(info.Duration, doc.Accessors[s.Input].Max[0])
		}
	}
	return info, nil
}
