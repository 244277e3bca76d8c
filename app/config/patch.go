package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Patch applies a JSON merge patch (RFC 7386) of settings: objects merge, null resets
// a setting to its default, any other value replaces it. Every key must name a known
// setting that may change through the API, with a value of its type, and the result
// must validate; otherwise f is left as it was. Keys of the file Wisp does not know
// are kept.
func (f *File) Patch(patch map[string]any) error {
	if err := checkPatch(patch, ""); err != nil {
		return err
	}
	data, err := f.marshal()
	if err != nil {
		return err
	}
	full := map[string]any{}
	if err := json.Unmarshal(data, &full); err != nil {
		return err
	}
	merged, err := json.Marshal(mergePatch(full, patch))
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	next, err := Parse(f.Path, merged)
	if err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			return inner // the file's path adds nothing for the API's caller
		}
		return err
	}
	*f = *next
	return nil
}

// checkPatch reports every key of patch that is unknown, not editable or of the wrong type.
func checkPatch(patch map[string]any, prefix string) error {
	var errs []error
	for k, v := range patch {
		path := prefix + k
		if sub, ok := v.(map[string]any); ok && isSection(path) {
			errs = append(errs, checkPatch(sub, path+"."))
			continue
		}
		field, ok := FieldAt(path)
		switch {
		case !ok && isSection(path):
			errs = append(errs, fmt.Errorf("%s must be an object of settings", path))
		case !ok:
			errs = append(errs, fmt.Errorf("unknown setting: %s", path))
		case !field.Editable && field.edit == "mcp":
			errs = append(errs, fmt.Errorf("%s are changed through /api/mcp/servers (or in the config file)", path))
		case !field.Editable:
			errs = append(errs, fmt.Errorf("%s can only be changed in the config file", path))
		case v != nil:
			errs = append(errs, checkType(field, v))
		}
	}
	return errors.Join(errs...)
}

func isSection(path string) bool {
	for _, f := range fields {
		if strings.HasPrefix(f.Path, path+".") {
			return true
		}
	}
	return false
}

func checkType(f Field, v any) error {
	var zero Config
	switch f.value(&zero).Kind() {
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be true or false", f.Path)
		}
	case reflect.Int:
		if n, ok := v.(float64); !ok || n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return fmt.Errorf("%s must be a whole number", f.Path)
		}
	case reflect.Float64:
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("%s must be a number", f.Path)
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s must be a string", f.Path)
		}
	case reflect.Map:
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s must be an object", f.Path)
		}
	case reflect.Slice:
		list, ok := v.([]any)
		for _, item := range list {
			if _, isStr := item.(string); !isStr {
				ok = false
			}
		}
		if !ok {
			return fmt.Errorf("%s must be a list of strings", f.Path)
		}
	}
	return nil
}

// mergePatch applies patch to dst per RFC 7386.
func mergePatch(dst, patch map[string]any) map[string]any {
	for k, v := range patch {
		switch v := v.(type) {
		case nil:
			delete(dst, k)
		case map[string]any:
			old, _ := dst[k].(map[string]any)
			if old == nil {
				old = map[string]any{}
			}
			dst[k] = mergePatch(old, v)
		default:
			dst[k] = v
		}
	}
	return dst
}
