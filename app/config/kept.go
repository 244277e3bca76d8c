package config

import (
	"fmt"
	"maps"
	"slices"
)

// KeptKey is the config file's top-level key that lists the secrets Wisp keeps in
// the desktop's keyring instead of the file ("secretsInKeyring": ["model.apiKey"]).
// Such a secret's own key in the file stays empty, so an older Wisp, or anyone
// reading the file, sees no value there rather than a placeholder it could mistake
// for one (an older Wisp would take any string in api.token for the token). Taking
// a setting off the list, by hand or by clearing it in the settings, removes the
// secret.
const KeptKey = "secretsInKeyring"

// SecretPaths lists the secret settings a keyring may keep: the model's API key and
// the tokens. (The MCP servers' env and header values stay in the file.)
func SecretPaths() []string {
	var out []string
	for _, f := range fields {
		if f.Secret {
			out = append(out, f.Path)
		}
	}
	return out
}

// Secret is the value of the secret setting at path in c ("" for anything else).
func (c Config) Secret(path string) string {
	if f, ok := FieldAt(path); ok && f.Secret {
		return f.value(&c).String()
	}
	return ""
}

// SetSecret sets the secret setting at path in c; anything else is left alone.
func (c *Config) SetSecret(path, value string) {
	if f, ok := FieldAt(path); ok && f.Secret {
		f.value(c).SetString(value)
	}
}

// IsKept says whether the file lists the secret at path as kept in the keyring.
func (f *File) IsKept(path string) bool { return f.kept[path] }

// Kept lists what the file says the keyring keeps, sorted.
func (f *File) Kept() []string { return slices.Sorted(maps.Keys(f.kept)) }

// Keep records the secret at path as kept in the keyring: the file's own value of
// it is emptied, and the path is listed under KeptKey.
func (f *File) Keep(path string) {
	f.Config.SetSecret(path, "")
	if f.kept == nil {
		f.kept = map[string]bool{}
	}
	f.kept[path] = true
}

// Unkeep takes the secret at path off the list: the keyring no longer keeps it.
func (f *File) Unkeep(path string) { delete(f.kept, path) }

// WithKept is the file's settings with the values of the secrets it lists as kept
// filled in from values (path → value); a value in the file itself wins.
func (f *File) WithKept(values map[string]string) Config {
	c := f.Config
	for path := range f.kept {
		if c.Secret(path) == "" && values[path] != "" {
			c.SetSecret(path, values[path])
		}
	}
	return c
}

// parseKept reads the KeptKey list of a file's keys. Names that are not secrets
// this version knows are kept (a later Wisp may keep more) and mean nothing here.
func parseKept(raw map[string]any) (map[string]bool, error) {
	v, ok := raw[KeptKey]
	if !ok || v == nil {
		return map[string]bool{}, nil
	}
	list, ok := v.([]any)
	kept := map[string]bool{}
	for _, item := range list {
		s, isStr := item.(string)
		if !isStr {
			ok = false
			break
		}
		kept[s] = true
	}
	if !ok {
		return nil, fmt.Errorf("%s must be a list of secret settings, such as [\"model.apiKey\"]", KeptKey)
	}
	return kept, nil
}

// putKept writes the list into the file's keys, or leaves it out when it is empty.
func putKept(m map[string]any, kept map[string]bool) {
	if len(kept) == 0 {
		delete(m, KeptKey)
		return
	}
	m[KeptKey] = slices.Sorted(maps.Keys(kept))
}
