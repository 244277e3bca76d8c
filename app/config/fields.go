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
	Path   string // dotted JSON path, e.g. "server.port"
	Apply  Apply
	Secret bool // never echoed back by the API
}

// Fields lists every leaf setting of Config in declaration order.
func Fields() []Field {
	var out []Field
	walkFields(reflect.TypeOf(Config{}), "", &out)
	return out
}

func walkFields(t reflect.Type, prefix string, out *[]Field) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		path := prefix + name
		if f.Type.Kind() == reflect.Struct {
			walkFields(f.Type, path+".", out)
			continue
		}
		*out = append(*out, Field{Path: path, Apply: Apply(f.Tag.Get("apply")), Secret: f.Tag.Get("secret") == "true"})
	}
}
