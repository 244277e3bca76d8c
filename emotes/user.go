package emotes

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/wispapp/wisp/internal/regular"
)

// ManifestFile describes the emotes of a user pack folder.
const ManifestFile = "emotes.json"

// Limits on what a user pack may hold.
const (
	DefaultMaxFile  = 16 << 20 // bytes per GLB file
	maxManifest     = 1 << 20
	maxJSONChunk    = 8 << 20
	maxDuration     = 600 // seconds
	maxDescription  = 300
	defaultCategory = "custom"
)

var (
	idPattern       = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	categoryPattern = regexp.MustCompile(`^[a-z][a-z0-9 -]{0,31}$`)
)

// manifest is the emotes.json of a user pack:
//
//	{"emotes": [{"id": "bow", "name": "Bow", "file": "bow.glb", "category": "greeting",
//	             "description": "Bows politely", "duration": 2, "loop": false}]}
//
// Only id and file are required; the duration defaults to the clip's own length. A .glb
// file that no entry names joins the catalog under its file name.
type manifest struct {
	Emotes []manifestEntry `json:"emotes"`
}

type manifestEntry struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Category    string   `json:"category"`
	File        string   `json:"file"`
	Duration    *float64 `json:"duration"`
	Loop        bool     `json:"loop"`
}

// Skipped is a user emote (or the whole folder) left out of the catalog, and why.
type Skipped struct {
	Entry  string // the id or file name, or the folder
	Reason string
}

// loadUser reads the user's folder. taken reports ids already in the catalog. Nothing in
// the folder can make it fail: bad entries are skipped with a reason.
func loadUser(dir string, maxFile int64, taken func(string) bool) ([]Emote, []Skipped) {
	var skipped []Skipped
	skip := func(entry, format string, args ...any) {
		skipped = append(skipped, Skipped{Entry: entry, Reason: fmt.Sprintf(format, args...)})
	}
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		skip(dir, "%v", err)
		return nil, skipped
	case st.Mode()&fs.ModeSymlink != 0:
		skip(dir, "the emote folder is a symbolic link; use a real folder")
		return nil, skipped
	case !st.IsDir():
		skip(dir, "not a folder")
		return nil, skipped
	}
	entries, err := readManifest(dir)
	if err != nil {
		skip(ManifestFile, "%v", err)
	}
	entries = append(entries, unlisted(dir, entries)...)
	var out []Emote
	seen := map[string]bool{}
	for _, m := range entries {
		e, err := validate(dir, m, maxFile)
		switch {
		case err != nil:
			skip(m.ID+" ("+m.File+")", "%v", err)
		case taken(e.ID):
			skip(e.ID, "a built-in emote has that id")
		case seen[e.ID]:
			skip(e.ID, "the id is used twice")
		default:
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	return out, skipped
}

// readManifest reads emotes.json, if there is one.
func readManifest(dir string) ([]manifestEntry, error) {
	f, err := openRegular(filepath.Join(dir, ManifestFile), maxManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m manifest
	dec := json.NewDecoder(io.LimitReader(f, maxManifest))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return m.Emotes, nil
}

// unlisted turns the .glb files no manifest entry names into entries of their own.
func unlisted(dir string, listed []manifestEntry) []manifestEntry {
	named := map[string]bool{}
	for _, m := range listed {
		named[m.File] = true
	}
	files, _ := os.ReadDir(dir)
	var out []manifestEntry
	for _, f := range files {
		name := f.Name()
		if named[name] || !strings.EqualFold(filepath.Ext(name), ".glb") || strings.HasPrefix(name, ".") {
			continue
		}
		out = append(out, manifestEntry{ID: idFromFile(name), File: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// idFromFile makes an id from a file name: "Bow Deep.glb" → "bow-deep".
func idFromFile(name string) string {
	base := strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-_")
}

// validate checks one entry and its file and returns the catalog entry.
func validate(dir string, m manifestEntry, maxFile int64) (Emote, error) {
	if !idPattern.MatchString(m.ID) {
		return Emote{}, fmt.Errorf("id %q: use 1-64 lower-case letters, digits, - or _", m.ID)
	}
	if err := checkFileName(m.File); err != nil {
		return Emote{}, err
	}
	cat := strings.ToLower(strings.TrimSpace(m.Category))
	if cat == "" {
		cat = defaultCategory
	}
	if !categoryPattern.MatchString(cat) {
		return Emote{}, fmt.Errorf("category %q: use up to 32 lower-case letters, digits, spaces or -", m.Category)
	}
	if len(m.Description) > maxDescription || len(m.Name) > 64 {
		return Emote{}, errors.New("the name (64) or description (300 characters) is too long")
	}
	info, err := inspectFile(filepath.Join(dir, m.File), maxFile)
	if err != nil {
		return Emote{}, fmt.Errorf("%s: %w", m.File, err)
	}
	if info.Animations == 0 {
		return Emote{}, fmt.Errorf("%s has no animation", m.File)
	}
	dur := info.Duration
	if m.Duration != nil {
		dur = *m.Duration
	}
	if !(dur > 0 && dur <= maxDuration) {
		return Emote{}, fmt.Errorf("duration %.3g s: want more than 0 and at most %d s", dur, maxDuration)
	}
	name := strings.TrimSpace(m.Name)
	if name == "" {
		name = titleFromID(m.ID)
	}
	return Emote{ID: m.ID, Name: name, Description: strings.TrimSpace(m.Description), Category: cat,
		GLBPath: Path(m.ID), Duration: dur, Loop: m.Loop, Source: SourceUser, Status: "Playing " + name, file: m.File}, nil
}

// checkFileName accepts a plain .glb file name in the folder itself: no path, no "..".
func checkFileName(name string) error {
	switch {
	case name == "":
		return errors.New("no file given")
	case strings.ContainsAny(name, `/\`+"\x00") || name == "." || name == ".." || filepath.Base(name) != name:
		return fmt.Errorf("file %q: give a file name in the emote folder, not a path", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("file %q: hidden files are not used", name)
	case !strings.EqualFold(filepath.Ext(name), ".glb"):
		return fmt.Errorf("file %q: only .glb files are used", name)
	}
	return nil
}

func titleFromID(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' })
	if len(words) > 0 {
		words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
	}
	return strings.Join(words, " ")
}

// inspectFile validates a GLB file without following links and without reading more than
// its header and JSON chunk.
func inspectFile(path string, maxFile int64) (GLBInfo, error) {
	f, err := openRegular(path, maxFile)
	if err != nil {
		return GLBInfo{}, err
	}
	defer f.Close()
	head := make([]byte, glbHeaderLen+8)
	if _, err := io.ReadFull(f, head); err != nil {
		return GLBInfo{}, errors.New("too short to be a GLB file")
	}
	if binary.LittleEndian.Uint32(head) != glbMagic {
		return GLBInfo{}, errors.New("not a GLB file (no glTF magic)")
	}
	n := int64(binary.LittleEndian.Uint32(head[12:]))
	if n > maxJSONChunk {
		return GLBInfo{}, errors.New("the JSON chunk is larger than 8 MiB")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(f, body); err != nil {
		return GLBInfo{}, errors.New("the JSON chunk is cut short")
	}
	info, err := Inspect(append(head, body...))
	if err == nil {
		st, _ := f.Stat()
		if int64(info.Length) != st.Size() {
			err = fmt.Errorf("the header says %d bytes, the file has %d", info.Length, st.Size())
		}
	}
	return info, err
}

// openRegular opens a file that is a regular file, not a symbolic link (O_NOFOLLOW: a
// link swapped in after a check is refused too), and not larger than limit, without
// blocking on what it finds (internal/regular). Its errors are reasons for a user,
// shown after the file's name.
func openRegular(path string, limit int64) (*os.File, error) {
	f, err := regular.Open(path, os.O_RDONLY, 0, regular.NoFollow)
	var notRegular *regular.NotRegularError
	switch {
	case errors.As(err, &notRegular) && notRegular.Mode&fs.ModeSymlink != 0:
		return nil, errors.New("symbolic links are not followed")
	case errors.As(err, &notRegular):
		return nil, errors.New(notRegular.What() + ", not a regular file")
	case err != nil:
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() > limit {
		err = fmt.Errorf("larger than the %d MiB limit", limit>>20)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
