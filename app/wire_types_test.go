package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/internal/tsgen"
	"github.com/wispapp/wisp/terminal"
)

// typesPath is the frontend's generated wire types and decoders.
var typesPath = filepath.Join("..", "frontend", "src", "api", "wire.gen.ts")

// patchOp is jsonpatch.Op's JSON (Op has its own MarshalJSON).
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// The frame unions of wire.gen.ts, by route.
var unionOf = map[wire.Route]string{
	wire.ToClient:   "ServerFrame",
	wire.ChatStream: "ChatFrame",
	wire.FromClient: "ClientFrame",
}

// wireTypes is wire.gen.ts: the TypeScript types and checking decoders of every
// frame of the catalog, every shape of the golden file and every body of the API.
func wireTypes() ([]byte, error) {
	g := tsgen.New(`The wire types of Wisp's API and their checking decoders, written from the Go
types of app/wire (and the few shapes other packages own) by TestWireTypes in
app/wire_types_test.go. Change the Go types, then run ` + "`go generate ./app`" + `.`)
	for _, e := range wire.Enums() {
		g.Enum(e...)
	}
	g.Rename(terminal.StatusRunning, "TerminalRunStatus")
	g.Enum(terminal.StatusRunning, terminal.StatusExited, terminal.StatusTimeout, terminal.StatusKilled, terminal.StatusError)
	g.Rename(config.Hot, "ApplyMode")
	g.Enum(config.Hot, config.Restart)
	g.Rename(config.Field{}, "ConfigField")
	// Go names that clash, or that say less than they should in the frontend.
	g.Rename(emotes.Emote{}, "CatalogEmote")
	g.Rename(terminal.Info{}, "TerminalRun")
	g.Rename(terminal.Snapshot{}, "TerminalSnapshot")
	g.Rename(terminal.Result{}, "TerminalResult")
	g.Rename(terminal.Chunk{}, "TerminalChunk")
	g.Rename(patchOp{}, "PatchOp")
	g.Override(jsonpatch.Op{}, patchOp{})

	// Frames: each Go type with the frame types it is sent as, by route.
	type key struct {
		route wire.Route
		typ   reflect.Type
	}
	types := map[key][]string{}
	var order []key
	for _, s := range wire.Catalog {
		k := key{s.Route, reflect.TypeOf(s.Shape)}
		if types[k] == nil {
			order = append(order, k)
		}
		types[k] = append(types[k], s.Type)
	}
	members := map[wire.Route][]string{}
	for _, k := range order {
		name := g.Add(reflect.Zero(k.typ).Interface(), tsgen.Literal("type", types[k]...))
		members[k.route] = append(members[k.route], name)
	}
	for _, route := range []wire.Route{wire.ToClient, wire.ChatStream, wire.FromClient} {
		g.Union(unionOf[route], "type", members[route]...)
	}
	// The delta dialect: the chat stream with its own frames where they differ.
	delta := slices.Clone(members[wire.ChatDelta])
	for _, k := range order {
		if k.route == wire.ChatStream && !slices.ContainsFunc(wire.Catalog, func(s wire.Spec) bool {
			return s.Route == wire.ChatDelta && slices.Contains(types[k], s.Type)
		}) {
			delta = append(delta, g.Add(reflect.Zero(k.typ).Interface()))
		}
	}
	g.Union("ChatDeltaFrame", "type", delta...)

	// Fields of other packages' shapes that take only some strings.
	g.Add(terminal.Chunk{}, tsgen.Literal("event", string(terminal.KindStdout), string(terminal.KindStderr)))
	g.Add(emotes.Emote{}, tsgen.Literal("source", emotes.SourceBuiltin, emotes.SourceUser))
	g.Add(api.ProviderInfo{}, tsgen.Literal("provider", "openai", "anthropic", "ollama", ""), tsgen.Literal("vision", "yes", "no", ""))

	// Shapes, by the golden file's names, then the API's bodies.
	shapes := wire.ShapeExamples()
	for name, ex := range restExamples() {
		shapes[name] = ex
	}
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := shapes[name][0]
		if reflect.TypeOf(v).Name() != name {
			g.Rename(v, name)
		}
		g.Add(v)
	}
	for _, v := range wire.Bodies() {
		g.Add(v)
	}
	g.List("SHAPE_NAMES", "Every shape of the golden file (testdata/wire.golden.json), by name.", names)
	return g.Generate()
}

// TestWireTypes keeps frontend/src/api/wire.gen.ts equal to what the generator
// writes from the Go types: a field added to a Go shape reaches the frontend's types
// and decoders, or this test fails. Run `go generate ./app` to rewrite it.
func TestWireTypes(t *testing.T) {
	out, err := wireTypes()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(typesPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(typesPath)
	if err != nil {
		t.Fatalf("%v: run go generate ./app", err)
	}
	if !bytes.Equal(have, out) {
		t.Fatalf("%s is not what the Go types say: run `go generate ./app`", typesPath)
	}
}
