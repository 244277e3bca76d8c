package archive

import (
	"bytes"
	"encoding/json"
)

// The JSON values an import keeps as they are (metadata, segments, display content,
// run output): checked for their kind, and compacted.

// object checks an optional JSON object (null is absent) and returns it compacted.
func (k *checker) object(path string, v json.RawMessage, required bool) json.RawMessage {
	v = absent(v)
	if v == nil {
		if required {
			k.fail(path, "is required")
		}
		return nil
	}
	if v[0] != '{' {
		k.fail(path, "must be a JSON object")
		return nil
	}
	return compact(v)
}

// array checks an optional JSON array (null is absent) and returns it compacted.
func (k *checker) array(path string, v json.RawMessage) json.RawMessage {
	v = absent(v)
	if v == nil {
		return nil
	}
	if v[0] != '[' {
		k.fail(path, "must be a JSON array")
		return nil
	}
	return compact(v)
}

// value checks a required JSON value that is not null and returns it compacted.
func (k *checker) value(path string, v json.RawMessage) json.RawMessage {
	v = absent(v)
	if v == nil {
		k.fail(path, "is required")
		return nil
	}
	return compact(v)
}

// absent is v without surrounding space, or nil when it is missing or null.
func absent(v json.RawMessage) json.RawMessage {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}

// compact drops the layout of a value decoded from a file (it came through the
// decoder, so it is valid JSON).
func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return v
	}
	return b.Bytes()
}
