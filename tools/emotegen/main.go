// Command emotegen builds Wisp's avatar and its emote clips as binary glTF files.
//
// Everything is made from code: the avatar is rounded parts hung on a small skeleton,
// and each clip is a function from time to pose, sampled at 30 frames a second. The
// output is deterministic, so the committed files can be checked against a fresh run:
//
//	go run ./tools/emotegen -catalog emotes/catalog.json -out emotes/glb
//
// With -vrm <folder> it also writes the VRM fixtures the browser tests load: the same
// character as a VRM 1.0 model (wisp-test.vrm), as a VRM 0.x model (wisp-test-0x.vrm),
// and a file that starts like one and is broken (broken.vrm).
//
// It reads the catalog file rather than importing the emotes package, which embeds the
// files this command writes.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
)

// entry is what the generator needs of a catalog entry.
type entry struct {
	ID       string  `json:"id"`
	Duration float64 `json:"duration"`
}

func main() {
	catalog := flag.String("catalog", "emotes/catalog.json", "the built-in catalog")
	out := flag.String("out", "emotes/glb", "folder to write avatar.glb and <id>.glb into")
	vrmOut := flag.String("vrm", "", "folder to write the VRM fixtures into (none when empty)")
	flag.Parse()
	data, err := os.ReadFile(*catalog)
	if err != nil {
		log.Fatal(err)
	}
	var entries []entry
	if err := json.Unmarshal(data, &entries); err != nil {
		log.Fatalf("%s: %v", *catalog, err)
	}
	writeAll(*out, func() (map[string][]byte, error) { return build(entries) })
	if *vrmOut != "" {
		writeAll(*vrmOut, buildFixtures)
	}
}

// writeAll writes what build makes into dir.
func writeAll(dir string, build func() (map[string][]byte, error)) {
	files, err := build()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("wrote %d files to %s\n", len(files), dir)
}

// build returns every file by name: the avatar and one clip per built-in emote.
func build(entries []entry) (map[string][]byte, error) {
	files := map[string][]byte{}
	avatar, err := buildAvatar().glb()
	if err != nil {
		return nil, err
	}
	files["avatar.glb"] = avatar
	for _, e := range entries {
		m, ok := motions[e.ID]
		if !ok {
			return nil, fmt.Errorf("no motion for emote %q", e.ID)
		}
		d, err := buildClip(e.ID, e.Duration, m)
		if err != nil {
			return nil, err
		}
		if files[e.ID+".glb"], err = d.glb(); err != nil {
			return nil, err
		}
	}
	return files, nil
}
