// Package wire is Wisp's vocabulary on the wire: the frame catalog (frames.go: every
// frame the server sends on /ws and in a chat SSE stream, and every frame a client
// may send on /ws, each a typed struct with its type constant and constructor) and
// the JSON shapes those frames and the chat and reminder routes carry.
//
// The hub sends only Frames, and a Frame is only what embeds Head, so no frame is
// built as a map. Producers publish frames to one Events sink; app/ fans them out.
// The frontend's decoders are checked against Examples (see app's golden test).
//
// It imports nothing of Wisp but internal/jsonstr: the hub, the services and the API
// all share it.
package wire
