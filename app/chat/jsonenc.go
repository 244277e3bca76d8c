package chat

import "encoding/json"

// appendJSON appends v encoded by encoding/json (for the rarer frames).
func appendJSON(b []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return append(b, `{"type":"error","message":"internal error encoding an event"}`...)
	}
	return append(b, data...)
}
