// Package jsonpatch keeps a JSON document that RFC 6902 patches change: a run's
// state, which actions patch and clients follow by applying the same patches. A
// patch applies whole or not at all.
package jsonpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Op is one RFC 6902 operation. Its JSON always has "from" for move and copy (""
// is the whole document), and an op decoded without one is refused.
type Op struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// noFrom: decoded without "from".
	noFrom bool
}

// wireOp is Op's JSON, with from present or absent.
type wireOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  *string         `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

func needsFrom(op string) bool { return op == "move" || op == "copy" }

// MarshalJSON writes the operation, with "from" whenever it is a move or a copy.
func (o Op) MarshalJSON() ([]byte, error) {
	w := wireOp{Op: o.Op, Path: o.Path, Value: o.Value}
	if needsFrom(o.Op) || o.From != "" {
		from := o.From
		w.From = &from
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an operation, noting whether it had "from".
func (o *Op) UnmarshalJSON(data []byte) error {
	var w wireOp
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*o = Op{Op: w.Op, Path: w.Path, Value: w.Value, noFrom: w.From == nil}
	if w.From != nil {
		o.From = *w.From
	}
	return nil
}

// Add is an add operation of v (marshalled to JSON) at path.
func Add(path string, v any) Op { return Op{Op: "add", Path: path, Value: mustJSON(v)} }

// Replace is a replace operation of the value at path by v.
func Replace(path string, v any) Op { return Op{Op: "replace", Path: path, Value: mustJSON(v)} }

// Test is a test operation: the value at path must equal v.
func Test(path string, v any) Op { return Op{Op: "test", Path: path, Value: mustJSON(v)} }

// Remove is a remove operation of the value at path.
func Remove(path string) Op { return Op{Op: "remove", Path: path} }

// Pointer joins tokens into a JSON Pointer (RFC 6901), escaping each.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escaper.Replace(t))
	}
	return b.String()
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// Doc is a JSON document; its zero value is the empty object {}. It is not safe for
// concurrent use.
type Doc struct {
	v any
	// set: v is the document (null included), not the zero value's {}.
	set bool
}

// Value returns the document as decoded JSON (numbers as json.Number).
func (d *Doc) Value() any {
	if !d.set {
		return map[string]any{}
	}
	return d.v
}

// MarshalJSON encodes the document.
func (d *Doc) MarshalJSON() ([]byte, error) { return json.Marshal(d.Value()) }

// Apply applies ops in order; when one fails, the document is left as it was.
func (d *Doc) Apply(ops []Op) error { return d.ApplyLimit(ops, 0) }

// ApplyLimit is Apply with the document's JSON bounded to limit bytes (0: no bound)
// after every operation, so that no patch (a copy of the document into itself, over
// and over) grows it far past the bound before it is refused.
func (d *Doc) ApplyLimit(ops []Op, limit int) error {
	v := clone(d.Value())
	for i, op := range ops {
		var err error
		if v, err = apply(v, op); err != nil {
			return fmt.Errorf("operation %d (%s %q): %w", i, op.Op, op.Path, err)
		}
		if limit > 0 {
			if b, err := json.Marshal(v); err != nil || len(b) > limit {
				return fmt.Errorf("operation %d (%s %q): the document would be over %d bytes", i, op.Op, op.Path, limit)
			}
		}
	}
	d.v, d.set = v, true
	return nil
}

// Check reports whether ops are well formed, without a document: known operations,
// valid pointers, a value where one is needed.
func Check(ops []Op) error {
	for i, op := range ops {
		if err := check(op); err != nil {
			return fmt.Errorf("operation %d (%s %q): %w", i, op.Op, op.Path, err)
		}
	}
	return nil
}

func check(op Op) error {
	if _, err := parsePointer(op.Path); err != nil {
		return err
	}
	switch op.Op {
	case "add", "replace", "test":
		_, err := decodeValue(op.Value)
		return err
	case "move", "copy":
		if op.noFrom {
			return errors.New(`the operation needs "from"`)
		}
		_, err := parsePointer(op.From)
		return err
	case "remove":
		return nil
	}
	return fmt.Errorf("unknown operation %q", op.Op)
}

func apply(doc any, op Op) (any, error) {
	if err := check(op); err != nil {
		return doc, err
	}
	path, _ := parsePointer(op.Path)
	switch op.Op {
	case "add":
		val, _ := decodeValue(op.Value)
		return add(doc, path, val)
	case "remove":
		doc, _, err := remove(doc, path)
		return doc, err
	case "replace":
		val, _ := decodeValue(op.Value)
		if len(path) == 0 {
			return val, nil
		}
		doc, _, err := remove(doc, path)
		if err != nil {
			return doc, err
		}
		return add(doc, path, val)
	case "move":
		from, _ := parsePointer(op.From)
		if op.From == op.Path {
			_, err := get(doc, from)
			return doc, err
		}
		if strings.HasPrefix(op.Path, op.From+"/") {
			return doc, errors.New("a value cannot be moved into itself")
		}
		doc, val, err := remove(doc, from)
		if err != nil {
			return doc, err
		}
		return add(doc, path, val)
	case "copy":
		from, _ := parsePointer(op.From)
		val, err := get(doc, from)
		if err != nil {
			return doc, err
		}
		return add(doc, path, clone(val))
	default: // "test"
		want, _ := decodeValue(op.Value)
		got, err := get(doc, path)
		if err != nil {
			return doc, err
		}
		if !equal(got, want) {
			return doc, errors.New("test failed: the value differs")
		}
		return doc, nil
	}
}

func decodeValue(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, errors.New("the operation needs a value")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	return v, nil
}

// parsePointer splits a JSON Pointer into its unescaped tokens ("" is the root).
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("pointer %q must start with /", p)
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		if !strings.Contains(t, "~") {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(t); j++ {
			if t[j] != '~' {
				b.WriteByte(t[j])
				continue
			}
			if j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1') {
				return nil, fmt.Errorf("pointer %q: ~ must be followed by 0 or 1", p)
			}
			b.WriteByte("~/"[t[j+1]-'0'])
			j++
		}
		toks[i] = b.String()
	}
	return toks, nil
}

// index reads an array index token; "-" (the end) only where adding allows it.
func index(tok string, n int, adding bool) (int, error) {
	if adding && tok == "-" {
		return n, nil
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	i, err := strconv.Atoi(tok)
	limit := n - 1
	if adding {
		limit = n
	}
	if err != nil || i > limit {
		return 0, fmt.Errorf("index %s is out of range (length %d)", tok, n)
	}
	return i, nil
}

// update replaces the value at toks by f's result, walking containers in place.
func update(doc any, toks []string, f func(any) (any, error)) (any, error) {
	if len(toks) == 0 {
		return f(doc)
	}
	switch c := doc.(type) {
	case map[string]any:
		child, ok := c[toks[0]]
		if !ok {
			return doc, fmt.Errorf("no member %q", toks[0])
		}
		nv, err := update(child, toks[1:], f)
		if err != nil {
			return doc, err
		}
		c[toks[0]] = nv
		return c, nil
	case []any:
		i, err := index(toks[0], len(c), false)
		if err != nil {
			return doc, err
		}
		nv, err := update(c[i], toks[1:], f)
		if err != nil {
			return doc, err
		}
		c[i] = nv
		return c, nil
	}
	return doc, fmt.Errorf("%q is inside a value that is neither an object nor an array", toks[0])
}

func add(doc any, toks []string, val any) (any, error) {
	if len(toks) == 0 {
		return val, nil
	}
	last := toks[len(toks)-1]
	return update(doc, toks[:len(toks)-1], func(parent any) (any, error) {
		switch c := parent.(type) {
		case map[string]any:
			c[last] = val
			return c, nil
		case []any:
			i, err := index(last, len(c), true)
			if err != nil {
				return parent, err
			}
			c = append(c, nil)
			copy(c[i+1:], c[i:])
			c[i] = val
			return c, nil
		}
		return parent, errors.New("the parent is neither an object nor an array")
	})
}

func remove(doc any, toks []string) (any, any, error) {
	if len(toks) == 0 {
		return doc, nil, errors.New("the whole document cannot be removed")
	}
	last := toks[len(toks)-1]
	var removed any
	doc, err := update(doc, toks[:len(toks)-1], func(parent any) (any, error) {
		switch c := parent.(type) {
		case map[string]any:
			v, ok := c[last]
			if !ok {
				return parent, fmt.Errorf("no member %q", last)
			}
			removed = v
			delete(c, last)
			return c, nil
		case []any:
			i, err := index(last, len(c), false)
			if err != nil {
				return parent, err
			}
			removed = c[i]
			return append(c[:i], c[i+1:]...), nil
		}
		return parent, errors.New("the parent is neither an object nor an array")
	})
	return doc, removed, err
}

func get(doc any, toks []string) (any, error) {
	var out any
	_, err := update(doc, toks, func(v any) (any, error) {
		out = v
		return v, nil
	})
	return out, err
}

// clone deep-copies decoded JSON.
func clone(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, e := range c {
			m[k] = clone(e)
		}
		return m
	case []any:
		s := make([]any, len(c))
		for i, e := range c {
			s[i] = clone(e)
		}
		return s
	}
	return v
}

// equal compares decoded JSON as RFC 6902's test does: numbers by value, objects
// regardless of member order.
func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equal(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, ex := x.Float64()
		fy, ey := y.Float64()
		return ex == nil && ey == nil && fx == fy
	}
	return a == b
}
