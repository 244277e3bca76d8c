// Package tsgen writes TypeScript from Go types: for every struct it is given, an
// interface with the struct's JSON fields and a decoder that checks an untrusted JSON
// value field by field and throws a WireDecodeError naming the JSON path of the
// first field that is wrong. It follows encoding/json's rules: json tags, omitempty
// (an optional field), pointers (T | null), slices, string-keyed maps, nested and
// embedded structs; typed string constants declared with Enum become string-literal
// unions. A field tagged `ts:"object"` (say a json.RawMessage that is always an
// object) is a Record<string, unknown>. It imports nothing of Wisp.
package tsgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Generator collects declarations in the order they are added, then writes them.
type Generator struct {
	header string
	decls  []decl
	names  map[reflect.Type]string // declared structs and enums
	taken  map[string]reflect.Type
	opts   map[reflect.Type]*structOpts
	as     map[reflect.Type]reflect.Type // Override
	errs   []error
}

// decl is one declaration of the output: a struct, an enum, a union or a list.
type decl struct {
	name   string
	doc    string
	typ    reflect.Type // struct or enum
	values []string     // enum values, or a list's strings
	union  *union
	list   bool
}

type union struct {
	field   string
	members []string // TypeScript names of structs with a Literal on field
}

type structOpts struct {
	literals map[string][]string // JSON field → the only values it takes
}

// Option changes how a struct added with Add is written.
type Option func(*structOpts)

// Literal makes a string field take only these values (a union's discriminator,
// such as a frame's "type").
func Literal(field string, values ...string) Option {
	return func(o *structOpts) { o.literals[field] = values }
}

// New is a generator whose output starts with header (a comment, without the
// comment markers; "Code generated … DO NOT EDIT." is added before it).
func New(header string) *Generator {
	return &Generator{header: header, names: map[reflect.Type]string{}, taken: map[string]reflect.Type{},
		opts: map[reflect.Type]*structOpts{}, as: map[reflect.Type]reflect.Type{}}
}

// Override says that the type of v, which has its own MarshalJSON, is written as
// the struct type of shape is (a struct with the same JSON); call it before any Add
// that reaches the type.
func (g *Generator) Override(v, shape any) {
	g.as[reflect.TypeOf(v)] = reflect.TypeOf(shape)
}

// resolve is the type t is written as.
func (g *Generator) resolve(t reflect.Type) reflect.Type {
	if as, ok := g.as[t]; ok {
		return as
	}
	return t
}

// Rename gives the struct type of v another TypeScript name than its Go name; call
// it before any Add that reaches the type.
func (g *Generator) Rename(v any, name string) {
	g.claim(reflect.TypeOf(v), name)
}

func (g *Generator) claim(t reflect.Type, name string) bool {
	if have, ok := g.taken[name]; ok && have != t {
		g.errs = append(g.errs, fmt.Errorf("tsgen: %s and %s are both named %s", have, t, name))
		return false
	}
	if have, ok := g.names[t]; ok && have != name {
		g.errs = append(g.errs, fmt.Errorf("tsgen: %s is named both %s and %s", t, have, name))
		return false
	}
	g.taken[name], g.names[t] = t, name
	return true
}

// Enum declares a string type's values (constants of one named string type):
// `export type T = 'a' | 'b'`, `export const TValues` and decodeT (T is the Go
// name, or the one Rename gave it).
func (g *Generator) Enum(values ...any) {
	if len(values) == 0 {
		return
	}
	t := reflect.TypeOf(values[0])
	if t.Kind() != reflect.String || t.PkgPath() == "" {
		g.errs = append(g.errs, fmt.Errorf("tsgen: enum of %s: not a named string type", t))
		return
	}
	var vals []string
	for _, v := range values {
		if reflect.TypeOf(v) != t {
			g.errs = append(g.errs, fmt.Errorf("tsgen: enum %s has a value of type %T", t, v))
			return
		}
		vals = append(vals, reflect.ValueOf(v).String())
	}
	if slices.ContainsFunc(g.decls, func(d decl) bool { return d.typ == t }) {
		g.errs = append(g.errs, fmt.Errorf("tsgen: enum %s declared twice", t))
		return
	}
	name := t.Name()
	if n, ok := g.names[t]; ok {
		name = n
	}
	if g.claim(t, name) {
		g.decls = append(g.decls, decl{name: name, typ: t, values: vals})
	}
}

// Add declares the struct type of v (its Go name, or the one Rename gave it) with
// its decoder, and every struct type it uses that is not declared yet.
func (g *Generator) Add(v any, opts ...Option) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.Name() == "" {
		g.errs = append(g.errs, fmt.Errorf("tsgen: add %s: not a named struct", t))
		return ""
	}
	if len(opts) > 0 {
		o := &structOpts{literals: map[string][]string{}}
		for _, opt := range opts {
			opt(o)
		}
		g.opts[t] = o
	}
	name := t.Name()
	if n, ok := g.names[t]; ok {
		name = n
	}
	g.declare(t, name)
	return name
}

// declare adds t under name, once, then the structs its fields use.
func (g *Generator) declare(t reflect.Type, name string) {
	if slices.ContainsFunc(g.decls, func(d decl) bool { return d.typ == t }) {
		return
	}
	if !g.claim(t, name) {
		return
	}
	g.decls = append(g.decls, decl{name: name, typ: t})
	fields, err := g.fields(t)
	if err != nil {
		g.errs = append(g.errs, err)
		return
	}
	for _, f := range fields {
		g.reach(f.typ, name+f.goName)
	}
}

// reach declares the structs a field's type uses; an anonymous struct is named
// after its field.
func (g *Generator) reach(t reflect.Type, anonName string) {
	t = g.resolve(t)
	switch {
	case t == rawMessage || t == timeType:
	case t.Kind() == reflect.Pointer, t.Kind() == reflect.Slice, t.Kind() == reflect.Array, t.Kind() == reflect.Map:
		g.reach(t.Elem(), anonName)
	case t.Kind() == reflect.Struct:
		name := t.Name()
		if n, ok := g.names[t]; ok {
			name = n
		} else if name == "" {
			name = anonName
		}
		g.declare(t, name)
	}
}

// Union declares a union of structs added with a Literal on field:
// `export type Name = A | B`, `export const NameTypes` (every value of field) and
// decodeName, which picks the member by field.
func (g *Generator) Union(name, field string, members ...string) {
	if _, ok := g.taken[name]; ok {
		g.errs = append(g.errs, fmt.Errorf("tsgen: union %s: the name is taken", name))
		return
	}
	g.taken[name] = nil
	g.decls = append(g.decls, decl{name: name, union: &union{field: field, members: members}})
}

// List declares `export const Name = [values…] as const`.
func (g *Generator) List(name, doc string, values []string) {
	g.decls = append(g.decls, decl{name: name, doc: doc, values: values, list: true})
}

var (
	rawMessage = reflect.TypeFor[json.RawMessage]()
	timeType   = reflect.TypeFor[time.Time]()
	marshaler  = reflect.TypeFor[json.Marshaler]()
)

// field is one JSON field of a struct.
type field struct {
	json     string
	goName   string
	typ      reflect.Type
	optional bool
	object   bool // ts:"object"
	literals []string
}

// fields are t's JSON fields in order, embedded structs' fields in their place.
func (g *Generator) fields(t reflect.Type) ([]field, error) {
	var out []field
	if err := g.collect(t, false, &out); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, f := range out {
		if seen[f.json] {
			return nil, fmt.Errorf("tsgen: %s: two fields are named %q", t, f.json)
		}
		seen[f.json] = true
		if o := g.opts[t]; o != nil {
			out[i].literals = o.literals[f.json]
		}
	}
	if o := g.opts[t]; o != nil {
		for name := range o.literals {
			if !seen[name] {
				return nil, fmt.Errorf("tsgen: %s has no field %q", t, name)
			}
		}
	}
	return out, nil
}

func (g *Generator) collect(t reflect.Type, optional bool, out *[]field) error {
	if reflect.PointerTo(t).Implements(marshaler) || t.Implements(marshaler) {
		return fmt.Errorf("tsgen: %s has its own MarshalJSON", t)
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			embedded, opt := ft, optional
			if embedded.Kind() == reflect.Pointer {
				embedded, opt = embedded.Elem(), true
			}
			if embedded.Kind() == reflect.Struct {
				if err := g.collect(embedded, opt, out); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "string") {
			return fmt.Errorf("tsgen: %s.%s: the ,string option is not supported", t, f.Name)
		}
		*out = append(*out, field{json: name, goName: f.Name, typ: ft, object: f.Tag.Get("ts") == "object",
			optional: optional || strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")})
	}
	return nil
}

// tsType is a field type's TypeScript and its decoder call on the value val at
// the path expression path.
func (g *Generator) tsType(t reflect.Type, omit bool) (ts string, dec func(val, path string) string, err error) {
	t = g.resolve(t)
	if name, ok := g.names[t]; ok {
		return name, func(val, path string) string { return fmt.Sprintf("decode%s(%s, %s)", name, val, path) }, nil
	}
	switch {
	case t == rawMessage:
		return "unknown", func(val, path string) string { return fmt.Sprintf("_present(%s, %s)", val, path) }, nil
	case t == timeType:
		return "string", prim("_str"), nil
	case t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler):
		return "", nil, fmt.Errorf("%s has its own MarshalJSON", t)
	}
	switch t.Kind() {
	case reflect.String:
		return "string", prim("_str"), nil
	case reflect.Bool:
		return "boolean", prim("_bool"), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number", prim("_num"), nil
	case reflect.Interface:
		return "unknown", func(val, path string) string { return fmt.Sprintf("_present(%s, %s)", val, path) }, nil
	case reflect.Pointer:
		ts, inner, err := g.tsType(t.Elem(), false)
		if err != nil || omit {
			return ts, inner, err // omitted when nil: never null
		}
		return ts + " | null", func(val, path string) string {
			return fmt.Sprintf("_nullable(%s, %s, (x, p) => %s)", val, path, inner("x", "p"))
		}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string", prim("_str"), nil // base64
		}
		ts, inner, err := g.tsType(t.Elem(), false)
		if err != nil {
			return "", nil, err
		}
		if strings.ContainsAny(ts, " |") {
			ts = "(" + ts + ")"
		}
		return ts + "[]", func(val, path string) string {
			return fmt.Sprintf("_arr(%s, %s, (x, p) => %s)", val, path, inner("x", "p"))
		}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return "", nil, fmt.Errorf("map key %s is not a string", t.Key())
		}
		ts, inner, err := g.tsType(t.Elem(), false)
		if err != nil {
			return "", nil, err
		}
		return "Record<string, " + ts + ">", func(val, path string) string {
			return fmt.Sprintf("_rec(%s, %s, (x, p) => %s)", val, path, inner("x", "p"))
		}, nil
	}
	return "", nil, fmt.Errorf("type %s is not supported", t)
}

func prim(fn string) func(val, path string) string {
	return func(val, path string) string { return fmt.Sprintf("%s(%s, %s)", fn, val, path) }
}

// Generate writes every declaration, or says what could not be written.
func (g *Generator) Generate() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/tsgen; DO NOT EDIT.\n")
	for line := range strings.SplitSeq(strings.TrimSpace(g.header), "\n") {
		b.WriteString(strings.TrimRight("// "+line, " ") + "\n")
	}
	var body bytes.Buffer
	for _, d := range g.decls {
		var err error
		switch {
		case d.list:
			g.writeList(&body, d)
		case d.union != nil:
			err = g.writeUnion(&body, d)
		case d.typ.Kind() == reflect.String:
			g.writeEnum(&body, d)
		default:
			err = g.writeStruct(&body, d)
		}
		if err != nil {
			g.errs = append(g.errs, err)
		}
	}
	if len(g.errs) > 0 {
		return nil, errors.Join(g.errs...)
	}
	b.WriteString(runtime(body.String()))
	b.Write(body.Bytes())
	return b.Bytes(), nil
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = quote(v)
	}
	return strings.Join(q, ", ")
}

func literalUnion(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = quote(v)
	}
	return strings.Join(q, " | ")
}

// quote is a TypeScript string literal in single quotes.
func quote(s string) string {
	j, _ := json.Marshal(s)
	inner := strings.ReplaceAll(string(j[1:len(j)-1]), `\"`, `"`)
	return "'" + strings.ReplaceAll(inner, "'", `\'`) + "'"
}

func (g *Generator) writeList(b *bytes.Buffer, d decl) {
	if d.doc != "" {
		fmt.Fprintf(b, "\n/** %s */", d.doc)
	}
	fmt.Fprintf(b, "\nexport const %s = [%s] as const\n", d.name, quoteAll(d.values))
}

func (g *Generator) writeEnum(b *bytes.Buffer, d decl) {
	fmt.Fprintf(b, "\nexport type %s = %s\n", d.name, literalUnion(d.values))
	fmt.Fprintf(b, "export const %sValues: readonly %s[] = [%s]\n", d.name, d.name, quoteAll(d.values))
	fmt.Fprintf(b, "export function decode%s(v: unknown, path = '%s'): %s {\n  return _oneOf(v, %sValues, path)\n}\n",
		d.name, d.name, d.name, d.name)
}

func (g *Generator) writeStruct(b *bytes.Buffer, d decl) error {
	fields, err := g.fields(d.typ)
	if err != nil {
		return err
	}
	type written struct {
		key, ts string
		dec     func(val, path string) string
		opt     bool
	}
	var ws []written
	for _, f := range fields {
		ts, dec, err := g.tsType(f.typ, f.optional)
		if err != nil {
			return fmt.Errorf("tsgen: %s.%s: %w", d.typ, f.goName, err)
		}
		if f.object {
			ts, dec = "Record<string, unknown>", prim("_obj")
		}
		if f.literals != nil {
			if f.typ.Kind() != reflect.String {
				return fmt.Errorf("tsgen: %s.%s: a literal field must be a string", d.typ, f.goName)
			}
			vals := f.literals
			ts, dec = literalUnion(vals), func(val, path string) string {
				return fmt.Sprintf("_oneOf(%s, [%s] as const, %s)", val, quoteAll(vals), path)
			}
		}
		ws = append(ws, written{f.json, ts, dec, f.optional})
	}
	fmt.Fprintf(b, "\nexport interface %s {\n", d.name)
	for _, w := range ws {
		opt := ""
		if w.opt {
			opt = "?"
		}
		fmt.Fprintf(b, "  %s%s: %s\n", propName(w.key), opt, w.ts)
	}
	b.WriteString("}\n")
	fmt.Fprintf(b, "export function decode%s(v: unknown, path = '%s'): %s {\n", d.name, d.name, d.name)
	if len(ws) == 0 {
		fmt.Fprintf(b, "  _obj(v, path)\n  return {}\n}\n")
		return nil
	}
	b.WriteString("  const o = _obj(v, path)\n")
	fmt.Fprintf(b, "  const out: %s = {\n", d.name)
	for _, w := range ws {
		if !w.opt {
			fmt.Fprintf(b, "    %s: %s,\n", propName(w.key), w.dec(access(w.key), pathExpr(w.key)))
		}
	}
	b.WriteString("  }\n")
	for _, w := range ws {
		if w.opt {
			fmt.Fprintf(b, "  if (%s !== undefined) out%s = %s\n", access(w.key), member(w.key), w.dec(access(w.key), pathExpr(w.key)))
		}
	}
	b.WriteString("  return out\n}\n")
	return nil
}

func (g *Generator) writeUnion(b *bytes.Buffer, d decl) error {
	u := d.union
	var values []string
	byValue := map[string]string{}
	for _, m := range u.members {
		t := g.taken[m]
		if t == nil || g.opts[t] == nil || g.opts[t].literals[u.field] == nil {
			return fmt.Errorf("tsgen: union %s: %s is not a struct added with Literal(%q, …)", d.name, m, u.field)
		}
		for _, v := range g.opts[t].literals[u.field] {
			if have, ok := byValue[v]; ok {
				return fmt.Errorf("tsgen: union %s: %s and %s both have %s %q", d.name, have, m, u.field, v)
			}
			byValue[v] = m
			values = append(values, v)
		}
	}
	fmt.Fprintf(b, "\nexport type %s = %s\n", d.name, strings.Join(u.members, " | "))
	fmt.Fprintf(b, "export const %sTypes = [%s] as const\n", d.name, quoteAll(values))
	fmt.Fprintf(b, "const %sDecoders: Record<string, (v: unknown, path: string) => %s> = {\n", lowerFirst(d.name), d.name)
	for _, v := range values {
		fmt.Fprintf(b, "  %s: decode%s,\n", propName(v), byValue[v])
	}
	b.WriteString("}\n")
	fmt.Fprintf(b, "export function decode%s(v: unknown, path = '%s'): %s {\n", d.name, d.name, d.name)
	fmt.Fprintf(b, "  const kind = _str(_obj(v, path)%s, %s)\n", member(u.field), pathExpr(u.field))
	fmt.Fprintf(b, "  const decode = Object.hasOwn(%[1]sDecoders, kind) ? %[1]sDecoders[kind] : undefined\n", lowerFirst(d.name))
	fmt.Fprintf(b, "  if (decode === undefined) throw new WireDecodeError(%s, `unknown %s ${JSON.stringify(kind)}`)\n",
		pathExpr(u.field), u.field)
	b.WriteString("  return decode(v, path)\n}\n")
	return nil
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && r != '$' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// propName is an object key as written in an interface or literal.
func propName(k string) string {
	if isIdent(k) {
		return k
	}
	return quote(k)
}

// member is `.k` or `['k']`.
func member(k string) string {
	if isIdent(k) {
		return "." + k
	}
	return "[" + quote(k) + "]"
}

func access(k string) string { return "o" + member(k) }

func pathExpr(k string) string { return "path + " + quote(member(k)) }

// helper is one function of the generated file's runtime; it is written only when
// the declarations (or another helper written) call it.
type helper struct{ name, code string }

// helpers are the checks every decoder is built of, in the order they are written.
var helpers = []helper{
	{"_what", `
function _what(v: unknown): string {
  if (v === undefined) return 'missing'
  if (v === null) return 'null'
  return Array.isArray(v) ? 'an array' : ` + "`a ${typeof v}`" + `
}
`},
	{"_fail", `
function _fail(path: string, want: string, v: unknown): never {
  throw new WireDecodeError(path, ` + "`want ${want}, have ${_what(v)}`" + `)
}
`},
	{"_obj", `
function _obj(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) _fail(path, 'an object', v)
  return v as Record<string, unknown>
}
`},
	{"_str", `
function _str(v: unknown, path: string): string {
  return typeof v === 'string' ? v : _fail(path, 'a string', v)
}
`},
	{"_num", `
function _num(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : _fail(path, 'a number', v)
}
`},
	{"_bool", `
function _bool(v: unknown, path: string): boolean {
  return typeof v === 'boolean' ? v : _fail(path, 'a boolean', v)
}
`},
	{"_present", `
function _present(v: unknown, path: string): unknown {
  return v === undefined ? _fail(path, 'a value', v) : v
}
`},
	{"_oneOf", `
function _oneOf<const T extends string>(v: unknown, values: readonly T[], path: string): T {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T
  return _fail(path, values.map((x) => JSON.stringify(x)).join(' or '), v)
}
`},
	{"_nullable", `
function _nullable<T>(v: unknown, path: string, decode: (x: unknown, p: string) => T): T | null {
  return v === null ? null : decode(v, path)
}
`},
	{"_arr", `
function _arr<T>(v: unknown, path: string, decode: (x: unknown, p: string) => T): T[] {
  if (!Array.isArray(v)) _fail(path, 'an array', v)
  return v.map((x, i) => decode(x, ` + "`${path}[${i}]`" + `))
}
`},
	{"_rec", `
function _rec<T>(v: unknown, path: string, decode: (x: unknown, p: string) => T): Record<string, T> {
  const o = _obj(v, path)
  const out: Record<string, T> = {}
  for (const [k, x] of Object.entries(o)) out[k] = decode(x, ` + "`${path}[${JSON.stringify(k)}]`" + `)
  return out
}
`},
}

// runtime is the generated file's error type and the helpers body calls.
func runtime(body string) string {
	used := map[string]bool{"_fail": true, "_what": true}
	text := body
	for changed := true; changed; { // a helper may call another
		changed = false
		for _, h := range helpers {
			if !used[h.name] && strings.Contains(text, h.name+"(") {
				used[h.name], changed = true, true
				text += h.code
			}
		}
	}
	var b strings.Builder
	b.WriteString(`
/** A JSON value that is not the shape its decoder expects; path says where (Type.field[0].field). */
export class WireDecodeError extends Error {
  readonly path: string
  constructor(path: string, message: string) {
    super(` + "`${path}: ${message}`" + `)
    this.name = 'WireDecodeError'
    this.path = path
  }
}

/** decode(v), or null when v is not its shape. */
export function decodeOrNull<T>(decode: (v: unknown) => T, v: unknown): T | null {
  try {
    return decode(v)
  } catch (e) {
    if (e instanceof WireDecodeError) return null
    throw e
  }
}
`)
	for _, h := range helpers {
		if used[h.name] {
			b.WriteString(h.code)
		}
	}
	return b.String()
}
