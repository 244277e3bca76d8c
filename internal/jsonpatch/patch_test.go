package jsonpatch

import (
	"encoding/json"
	"strings"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
)

// cases follow RFC 6902's appendix: each applies patch to doc and expects want, or
// an error when want is "".
var cases = []struct {
	name, doc, patch, want string
}{
	{"add member", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
	{"add array element", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
	{"add to end", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},
	{"add replaces a member", `{"a":1}`, `[{"op":"add","path":"/a","value":2}]`, `{"a":2}`},
	{"add null", `{}`, `[{"op":"add","path":"/a","value":null}]`, `{"a":null}`},
	{"add the root", `{"a":1}`, `[{"op":"add","path":"","value":[1]}]`, `[1]`},
	{"add to a missing parent", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`, ``},
	{"add past the end", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/2","value":1}]`, ``},
	{"add without value", `{}`, `[{"op":"add","path":"/a"}]`, ``},
	{"remove member", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
	{"remove element", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
	{"remove missing", `{"a":1}`, `[{"op":"remove","path":"/b"}]`, ``},
	{"remove the root", `{"a":1}`, `[{"op":"remove","path":""}]`, ``},
	{"replace", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
	{"replace missing", `{}`, `[{"op":"replace","path":"/a","value":1}]`, ``},
	{"replace element", `[1,2,3]`, `[{"op":"replace","path":"/1","value":9}]`, `[1,9,3]`},
	{"move member", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`,
		`[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`, `{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
	{"move element", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
	{"move into itself", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, ``},
	{"copy", `{"a":{"b":1}}`, `[{"op":"copy","from":"/a","path":"/c"},{"op":"replace","path":"/c/b","value":2}]`, `{"a":{"b":1},"c":{"b":2}}`},
	{"test ok", `{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
	{"test numbers by value", `{"a":1}`, `[{"op":"test","path":"/a","value":1.0}]`, `{"a":1}`},
	{"test fails", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, ``},
	{"escaped tokens", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10},{"op":"add","path":"/a~1b","value":1}]`, `{"/":9,"a/b":1,"~1":10}`},
	{"bad escape", `{}`, `[{"op":"add","path":"/a~2","value":1}]`, ``},
	{"no leading slash", `{}`, `[{"op":"add","path":"a","value":1}]`, ``},
	{"leading zero index", `[1,2]`, `[{"op":"remove","path":"/01"}]`, ``},
	{"unknown op", `{}`, `[{"op":"frob","path":"/a"}]`, ``},
	{"copy the whole document", `{"a":1}`, `[{"op":"copy","from":"","path":"/snap"}]`, `{"a":1,"snap":{"a":1}}`},
	{"copy without from", `{"a":1}`, `[{"op":"copy","path":"/snap"}]`, ``},
	{"move without from", `{"a":1}`, `[{"op":"move","path":"/b"}]`, ``},
	{"replace the root by null", `{"a":1}`, `[{"op":"replace","path":"","value":null}]`, `null`},
	{"all or nothing", `{"a":1}`, `[{"op":"add","path":"/b","value":2},{"op":"remove","path":"/zzz"}]`, ``},
}

func TestApply(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := docOf(t, c.doc)
			before, _ := json.Marshal(&d)
			var ops []Op
			if err := json.Unmarshal([]byte(c.patch), &ops); err != nil {
				t.Fatal(err)
			}
			err := d.Apply(ops)
			got, _ := json.Marshal(&d)
			if c.want == "" {
				if err == nil {
					t.Fatalf("applied, want an error; got %s", got)
				}
				if string(got) != string(before) {
					t.Fatalf("a failed patch changed the document: %s → %s", before, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestAgreesWithEvanphx applies every case that succeeds with another library too.
func TestAgreesWithEvanphx(t *testing.T) {
	for _, c := range cases {
		// evanphx compares number text, and its Equal panics on a null document.
		if c.want == "" || c.name == "test numbers by value" || c.want == "null" {
			continue
		}
		p, err := evanphx.DecodePatch([]byte(c.patch))
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Apply([]byte(c.doc))
		if err != nil {
			t.Fatalf("%s: evanphx: %v", c.name, err)
		}
		if !evanphx.Equal(got, []byte(c.want)) {
			t.Errorf("%s: evanphx got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestBuilders(t *testing.T) {
	var d Doc
	ops := []Op{Add(Pointer("a/b~c"), map[string]int{"n": 1}), Replace(Pointer("a/b~c", "n"), 2), Add("/x", []int{}), Add("/x/-", "y"), Remove("/x/0")}
	if err := Check(ops); err != nil {
		t.Fatal(err)
	}
	if err := d.Apply(ops); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(&d)
	if string(got) != `{"a/b~c":{"n":2},"x":[]}` {
		t.Fatalf("got %s", got)
	}
	if ops[0].Path != "/a~1b~0c" {
		t.Fatalf("pointer %q", ops[0].Path)
	}
}

// An operation's JSON keeps "from" for a move or copy of the whole document, so
// other libraries apply it as Wisp did.
func TestOpJSON(t *testing.T) {
	ops := []Op{{Op: "copy", From: "", Path: "/snap"}, {Op: "move", From: "/a", Path: "/b"}, Add("/x", 1), Remove("/x")}
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"op":"copy","path":"/snap","from":""},{"op":"move","path":"/b","from":"/a"},{"op":"add","path":"/x","value":1},{"op":"remove","path":"/x"}]`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	var back []Op
	if err := json.Unmarshal(b, &back); err != nil || Check(back) != nil {
		t.Fatalf("decoded %+v: %v %v", back, err, Check(back))
	}
	p, err := evanphx.DecodePatch(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Apply([]byte(`{"a":1}`))
	if err != nil || !evanphx.Equal(got, []byte(`{"b":1,"snap":{"a":1}}`)) {
		t.Fatalf("evanphx: %s %v", got, err)
	}
}

// A patch that doubles the document again and again is refused as soon as the
// document passes the bound, and changes nothing.
func TestApplyLimit(t *testing.T) {
	d := docOf(t, `{"a":"0123456789"}`)
	var ops []Op
	for i := 0; i < 64; i++ {
		ops = append(ops, Op{Op: "copy", From: "", Path: "/c"})
	}
	if err := d.ApplyLimit(ops, 1<<10); err == nil || !strings.Contains(err.Error(), "over 1024 bytes") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := json.Marshal(&d); string(b) != `{"a":"0123456789"}` {
		t.Fatalf("a refused patch changed the document: %s", b)
	}
	if err := d.ApplyLimit(ops[:3], 1<<10); err != nil {
		t.Fatalf("a patch within the bound: %v", err)
	}
}

func docOf(t testing.TB, s string) Doc {
	var d Doc
	if err := d.Apply([]Op{{Op: "add", Path: "", Value: json.RawMessage(s)}}); err != nil {
		t.Fatal(err)
	}
	return d
}

// FuzzApply: no patch, however hostile, panics, and a failed one changes nothing.
func FuzzApply(f *testing.F) {
	for _, c := range cases {
		f.Add(c.doc, c.patch)
	}
	f.Fuzz(func(t *testing.T, doc, patch string) {
		var d Doc
		if d.Apply([]Op{{Op: "add", Path: "", Value: json.RawMessage(doc)}}) != nil {
			return
		}
		var ops []Op
		if json.Unmarshal([]byte(patch), &ops) != nil {
			return
		}
		before, _ := json.Marshal(&d)
		if err := d.Apply(ops); err != nil {
			after, _ := json.Marshal(&d)
			if string(after) != string(before) && !strings.Contains(string(before), "NaN") {
				t.Fatalf("failed patch changed %s to %s", before, after)
			}
		}
	})
}
