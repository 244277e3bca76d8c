package archive

import (
	"encoding/json"
	"errors"
	"fmt"
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

// jsonError says where the JSON of what went wrong, in the user's words.
func jsonError(what string, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fault.Invalid.Errorf("%s is not valid JSON (at byte %d): %v", what, syntax.Offset, syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the top level"
		}
		return fault.Invalid.Errorf("%s: %s must be %s, not %s", what, field, kindOf(typ.Type.Kind().String()), typ.Value)
	}
	return fault.Invalid.Errorf("%s is not valid JSON: %v", what, err)
}

// kindOf names a Go kind the way a JSON file's author knows it.
func kindOf(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	case "int", "int64", "float64", "uint8":
		return "a number"
	}
	return "a " + kind
}
