package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Change is one setting that differs between two configs.
type Change struct {
	Field
	Old, New any
}

// Diff lists the settings that differ from old to new, in declaration order.
func Diff(old, new Config) []Change {
	var out []Change
	for _, f := range fields {
		o, n := f.value(&old).Interface(), f.value(&new).Interface()
		if !reflect.DeepEqual(o, n) && !(isEmpty(o) && isEmpty(n)) {
			out = append(out, Change{Field: f, Old: o, New: n})
		}
	}
	return out
}

// isEmpty: an empty list or map (nil or not: a file without the key and one with
// an empty value say the same).
func isEmpty(v any) bool {
	r := reflect.ValueOf(v)
	return (r.Kind() == reflect.Slice || r.Kind() == reflect.Map) && r.Len() == 0
}

// Reason says in words what changed, for the restart banner: "Server port changed:
// 2138 → 3000", "Shell access enabled". Secrets are never shown.
func (c Change) Reason() string {
	label := c.Label
	if label == "" {
		label = c.Path
	}
	if b, ok := c.New.(bool); ok {
		if b {
			return label + " enabled"
		}
		return label + " disabled"
	}
	if c.Secret {
		switch {
		case c.Old == "":
			return label + " set"
		case c.New == "":
			return label + " removed"
		}
		return label + " changed"
	}
	if k := reflect.ValueOf(c.New).Kind(); k == reflect.Slice || k == reflect.Map {
		return label + " changed"
	}
	return fmt.Sprintf("%s changed: %s → %s", label, c.show(c.Old), c.show(c.New))
}

func (c Change) show(v any) string {
	switch v := v.(type) {
	case string:
		if v == "" {
			return "(default)"
		}
		if r := []rune(v); len(r) > 60 {
			return string(r[:57]) + "…"
		}
		return v
	case int:
		if c.Unit == "ms" {
			return showDuration(time.Duration(v) * time.Millisecond)
		}
	}
	return fmt.Sprint(v)
}

// showDuration drops the zero tail of Duration.String: 5m0s → 5m, 1h0m0s → 1h.
func showDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
