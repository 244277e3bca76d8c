package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
)

// A refusal says what is wrong with a file and where, in the user's words (a
// fault.Invalid, which the API answers as a 400).

// invalid is a refusal of what is at path in the file.
func invalid(path, format string, args ...any) error {
	return fault.Invalid.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
}

// maxQuoted is how many bytes of a value from the file an error quotes.
const maxQuoted = 64

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// jsonError says what of the file's JSON is wrong, quoting little of it: a number
// of 20 MB that does not fit its field is named by its first digits. A syntax error
// names its byte in the file (the first is byte 1): the decoder read from byte base
// on, after a byte order mark.
func jsonError(what string, err error, base int) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fault.Invalid.Errorf("%s is not valid JSON (at byte %d): %s", what, int64(base)+syntax.Offset, clip(syntax.Error()))
	case errors.As(err, &typ):
		return typeError(what, typ)
	}
	return fault.Invalid.Errorf("%s is not valid JSON: %s", what, clip(err.Error()))
}

// typeError says which value of the file does not fit its field.
func typeError(what string, typ *json.UnmarshalTypeError) error {
	field := clip(typ.Field)
	if field == "" {
		field = "the top level"
	}
	kind := typ.Type.Kind()
	if number, ok := strings.CutPrefix(typ.Value, "number "); ok {
		// A number in a number's field that does not fit it.
		if isFloat(kind) {
			return fault.Invalid.Errorf("%s: %s %s is out of range", what, field, clip(number))
		}
		return fault.Invalid.Errorf("%s: %s %s is not a whole number in range", what, field, clip(number))
	}
	return fault.Invalid.Errorf("%s: %s must be %s, not %s", what, field, kindOf(kind), clip(typ.Value))
}

// kindOf names a Go kind the way a JSON file's author knows it.
func kindOf(kind reflect.Kind) string {
	switch {
	case kind == reflect.String:
		return "a string"
	case kind == reflect.Slice, kind == reflect.Array:
		return "an array"
	case kind == reflect.Struct, kind == reflect.Map:
		return "an object"
	case kind == reflect.Bool:
		return "true or false"
	case isFloat(kind), kind >= reflect.Int && kind <= reflect.Uint64:
		return "a number"
	}
	return "a " + kind.String()
}

func isFloat(kind reflect.Kind) bool { return kind == reflect.Float32 || kind == reflect.Float64 }
