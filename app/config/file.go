package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"

	"github.com/wispapp/wisp/internal/atomicfile"
)

// File is the config as found on disk: the typed settings plus every key of the file,
// so that keys this version does not know survive a save.
type File struct {
	Path   string
	Config Config
	raw    map[string]any
	kept   map[string]bool // the secrets the keyring keeps (KeptKey)
}

// Load reads the config file at path. A missing file is created with the defaults
// (mode 0600). Missing keys take defaults; a file that is not valid JSON, or whose
// values fail validation, is an error and nothing is written, as is anything but a
// regular file of at most MaxFileBytes (see readFile).
//
// Load is called once, at start: first it removes the temporary files that saves of
// this file killed before their rename left beside it. A save in progress (another
// Wisp may share the file, through WISP_CONFIG_PATH) keeps its own (atomicfile.Sweep).
// That is a clean-up: when it fails, the files stay for the next start.
func Load(path string) (*File, error) {
	_, _ = atomicfile.Sweep(filepath.Dir(path), filepath.Base(path))
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f := &File{Path: path, Config: Default(), raw: map[string]any{}, kept: map[string]bool{}}
		if err := f.Save(); err != nil {
			return nil, err
		}
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes a config file's bytes on top of the defaults and validates the result.
func Parse(path string, data []byte) (*File, error) {
	raw := map[string]any{}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("config %s is not valid JSON: %w", path, err)
	}
	cfg := Default()
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	kept, err := parseKept(raw)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &File{Path: path, Config: cfg, raw: raw, kept: kept}, nil
}

// Save writes the config atomically (mode 0600, see writeAtomic). Unknown keys are
// kept.
func (f *File) Save() error {
	if err := f.Config.Validate(); err != nil {
		return err
	}
	data, err := f.marshal()
	if err != nil {
		return err
	}
	return writeAtomic(f.Path, data)
}

func (f *File) marshal() ([]byte, error) {
	known, err := toMap(f.Config)
	if err != nil {
		return nil, err
	}
	merged := mergeMaps(cloneMap(f.raw), known)
	merged["mcpServers"] = mergeServers(f.raw["mcpServers"], known["mcpServers"])
	putKept(merged, f.kept)
	data, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return append(data, '\n'), nil
}

func toMap(cfg Config) (map[string]any, error) {
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return m, nil
}

// mergeMaps copies src over dst, descending into objects present on both sides, so
// that unknown keys of dst at any depth are kept.
func mergeMaps(dst, src map[string]any) map[string]any {
	for k, v := range src {
		sub, isMap := v.(map[string]any)
		old, wasMap := dst[k].(map[string]any)
		if isMap && wasMap {
			dst[k] = mergeMaps(old, sub)
			continue
		}
		dst[k] = v
	}
	return dst
}

// mcpKeys are the keys of an MCP server Wisp reads.
var mcpKeys = []string{"command", "args", "env", "cwd", "url", "headers", "disabled"}

// mergeServers writes the MCP servers as Wisp has them: a server that is gone is
// dropped, and the keys Wisp reads are replaced whole (an env variable or header
// taken out is gone); keys of a server Wisp does not read (another app's "type" or
// "alwaysAllow") are kept.
func mergeServers(old, now any) any {
	nowMap, ok := now.(map[string]any)
	if !ok {
		return now
	}
	oldMap, _ := old.(map[string]any)
	out := make(map[string]any, len(nowMap))
	for name, spec := range nowMap {
		was, _ := oldMap[name].(map[string]any)
		merged := cloneMap(was)
		if merged == nil {
			merged = map[string]any{}
		}
		for _, k := range mcpKeys {
			delete(merged, k)
		}
		if m, ok := spec.(map[string]any); ok {
			for k, v := range m {
				merged[k] = v
			}
		}
		out[name] = merged
	}
	return out
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneMap(sub)
		}
		out[k] = v
	}
	return out
}

// writeAtomic replaces the config file whole (internal/atomicfile): a reader, the
// watcher or another Wisp sharing the file, never sees half of it.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("save config: %w", err)
	}
	return nil
}

// Clone returns a copy of f that can be changed without touching f.
func (f *File) Clone() *File {
	return &File{Path: f.Path, Config: f.Config, raw: cloneMap(f.raw), kept: maps.Clone(f.kept)}
}
