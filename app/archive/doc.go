// Package archive takes conversations out of Wisp and brings them in: the versioned
// export format (docs/export.md) written as JSON, lossless, or as Markdown to read;
// and the importers of that JSON and of ChatGPT's conversations.json. Both keep the
// tree of a conversation's messages (every branch, and the one shown). An import
// checks the whole file first (it is untrusted), keeps ids (ChatGPT's become ids
// derived from them), skips a conversation Wisp already has, saves each conversation
// in one transaction and announces it to every client with a conversation-updated
// frame.
//
// It knows the store, the frame catalog (app/wire) and view, nothing of HTTP: bad
// input is a fault.Invalid error, an unknown conversation fault.NotFound.
package archive
