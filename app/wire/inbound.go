package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// ErrUnknownFrame is DecodeClientFrame's error for a type the catalog has no client
// frame of.
var ErrUnknownFrame = errors.New("unknown frame type")

// clientFrames are the catalog's client frames' structs, by type.
var clientFrames = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, s := range Catalog {
		if s.Route == FromClient {
			m[s.Type] = reflect.TypeOf(s.Shape)
		}
	}
	return m
}()

// DecodeClientFrame reads a frame a client sent on /ws: its type, then the catalog's
// struct of that type (Auth, Ping, ActiveConversation, TerminalInput or
// TerminalResize). A frame that is not a JSON object with a string type is an
// error; one of a type the catalog does not have is its Head and ErrUnknownFrame.
func DecodeClientFrame(data []byte) (Frame, error) {
	var h Head
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, errors.New("malformed frame: expected a JSON object with a type")
	}
	t, ok := clientFrames[h.Type]
	if !ok {
		return h, ErrUnknownFrame
	}
	p := reflect.New(t)
	if err := json.Unmarshal(data, p.Interface()); err != nil {
		return h, fmt.Errorf("malformed %s frame: %s", h.Type, fieldError(err))
	}
	return p.Elem().Interface().(Frame), nil
}

// fieldError says which field of a frame had the wrong type, without Go's names.
func fieldError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must be a JSON %s", te.Field, jsonKind(te.Type))
	}
	return "not valid JSON"
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "integer"
	case reflect.Bool:
		return "boolean"
	}
	return "value"
}
