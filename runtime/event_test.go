package runtime

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// EventKinds lists every EventType constant declared in event.go, and each decodes to
// its typed data.
func TestEventKindsComplete(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "event.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "EventType" {
				for _, n := range v.Names {
					declared = append(declared, n.Name)
				}
			}
		}
	}
	if len(declared) != len(EventKinds) {
		t.Fatalf("event.go declares %d event types %v, EventKinds lists %d", len(declared), declared, len(EventKinds))
	}
	seen := map[EventType]bool{}
	for _, k := range EventKinds {
		if seen[k] {
			t.Errorf("EventKinds lists %q twice", k)
		}
		seen[k] = true
		ev, err := DecodeEvent(string(k), []byte(`{}`))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if _, raw := ev.Data.(json.RawMessage); raw {
			t.Errorf("%s decodes to untyped data", k)
		}
	}
}
