package config

import (
	"reflect"
	"strings"
)

// Apply says when a change to a field takes effect.
type Apply string

const (
	Hot     Apply = "hot"     // applied while Wisp runs
	Restart Apply = "restart" // applied after a restart
)

// Field describes one leaf setting.
type Field struct {
	Path     string `json:"path"` // dotted JSON path, e.g. "server.port"
	Apply    Apply  `json:"apply"`
	Secret   bool   `json:"secret"`         // never echoed back by the API
	Editable bool   `json:"editable"`       // may change through the API (else only by hand)
	Label    string `json:"label"`          // how restart reasons name it
	Unit     string `json:"unit,omitempty"` // "ms" for durations
	index    []int  // where it is in Config
	edit     string // the edit tag: "" (the API), "file", "mcp"
}

var fields = func() []Field {
	var out []Field
	walkFields(reflect.TypeOf(Config{}), "", nil, &out)
	return out
}()

// Fields lists every leaf setting of Config in declaration order.
func Fields() []Field { return append([]Field(nil), fields...) }

// FieldAt finds the leaf setting at a dotted path.
func FieldAt(path string) (Field, bool) {
	for _, f := range fields {
		if f.Path == path {
			return f, true
		}
	}
	return Field{}, false
}

func walkFields(t reflect.Type, prefix string, index []int, out *[]Field) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		path := prefix + name
		idx := append(append([]int(nil), index...), i)
		if f.Type.Kind() == reflect.Struct {
			walkFields(f.Type, path+".", idx, out)
			continue
		}
		*out = append(*out, Field{
			Path: path, Apply: Apply(f.Tag.Get("apply")), Secret: f.Tag.Get("secret") == "true",
			Editable: f.Tag.Get("edit") == "", Label: f.Tag.Get("label"), Unit: f.Tag.Get("unit"),
			index: idx, edit: f.Tag.Get("edit"),
		})
	}
}

// value is the field's value in c.
func (f Field) value(c *Config) reflect.Value {
	return reflect.ValueOf(c).Elem().FieldByIndex(f.index)
}
