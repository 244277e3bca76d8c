package chat

import (
	"encoding/json"

	"github.com/wispapp/wisp/app/wire"
)

// appendJSON appends a frame encoded by encoding/json (for the rarer frames).
func appendJSON(b []byte, f wire.Frame) []byte {
	data, err := json.Marshal(f)
	if err != nil {
		return append(b, `{"type":"error","message":"internal error encoding an event"}`...)
	}
	return append(b, data...)
}
