package emotes

import (
	"encoding/binary"
	"strings"
	"testing"
)

// glb builds a GLB file around a JSON chunk.
func glb(version uint32, chunkType string, js string) []byte {
	for len(js)%4 != 0 {
		js += " "
	}
	b := []byte("glTF")
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint32(b, uint32(20+len(js)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	b = append(b, chunkType...)
	return append(b, js...)
}

const animJSON = `{"asset":{"version":"2.0"},"nodes":[{}],"accessors":[{"max":[1.25]},{"max":[2.5]}],` +
	`"animations":[{"samplers":[{"input":0},{"input":1}]}]}`

func TestInspect(t *testing.T) {
	info, err := Inspect(glb(2, "JSON", animJSON))
	if err != nil || info.Animations != 1 || info.Duration != 2.5 || info.Nodes != 1 {
		t.Fatalf("Inspect = %+v, %v", info, err)
	}
	cut := glb(2, "JSON", animJSON)
	cut = cut[:len(cut)-10]
	bad := []struct {
		name, want string
		data       []byte
	}{
		{"empty", "too short", nil},
		{"lfs pointer", "no glTF magic", []byte("version https://git-lfs.github.com/spec/v1\noid sha256:...")},
		{"version 1", "version 1", glb(1, "JSON", animJSON)},
		{"bin first", "not JSON", glb(2, "BIN\x00", animJSON)},
		{"cut short", "cut short", cut},
		{"not json", "JSON chunk", glb(2, "JSON", "{nope")},
		{"no max", "no max", glb(2, "JSON", `{"accessors":[{}],"animations":[{"samplers":[{"input":0}]}]}`)},
		{"bad input", "no max", glb(2, "JSON", `{"accessors":[],"animations":[{"samplers":[{"input":3}]}]}`)},
		{"no samplers", "no samplers", glb(2, "JSON", `{"animations":[{"samplers":[]}]}`)},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inspect(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	long := glb(2, "JSON", animJSON)
	binary.LittleEndian.PutUint32(long[8:], 12) // declared length shorter than the chunk
	if _, err := Inspect(long); err == nil {
		t.Error("a chunk past the declared length was accepted")
	}
}

func FuzzInspect(f *testing.F) {
	f.Add(glb(2, "JSON", animJSON))
	f.Add(glb(2, "JSON", `{}`))
	f.Add([]byte("glTF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := Inspect(data)
		if err == nil && (info.Version != 2 || info.Duration < 0 && info.Animations > 0) {
			t.Fatalf("accepted %+v", info)
		}
	})
}
