// Package wire is Wisp's vocabulary on the wire: the frame catalog (frames.go: every
// frame the server sends on /ws and in a chat SSE stream, and every frame a client
// may send on /ws, each a typed struct with its type constant and constructor), the
// JSON shapes those frames and the API's routes carry (shapes.go and the files of
// each area), the bodies that wrap them (bodies.go: {"conversations": […]} is a
// ConversationList, never a map) and the status vocabularies (vocab.go: typed string
// constants).
//
// The hub sends only Frames, and a Frame is only what embeds Head, so no frame is
// built as a map; the hub reads a client's frames with DecodeClientFrame into the
// catalog's structs. Producers publish frames to one Events sink; app/ fans them out.
//
// The frontend's types and decoders are generated from these types
// (frontend/src/api/wire.gen.ts, by internal/tsgen from app's TestWireTypes) and
// checked against Examples (app's TestWireGolden): `go generate ./app` rewrites both.
//
// It imports nothing of Wisp but internal/jsonstr, internal/jsonpatch and
// internal/jsonlist: the hub, the services and the API all share it.
package wire
