package view

import (
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// Attachment is a stored attachment in its wire shape.
func Attachment(a store.Attachment) wire.Attachment {
	return wire.Attachment{ID: a.ID, Name: a.Name, MIME: a.Blob.MIME, Size: a.Blob.Size, SHA256: a.SHA256,
		Kind: wire.AttachmentKind(a.Blob.Kind), Width: a.Blob.Width, Height: a.Blob.Height, Pages: a.Blob.Pages}
}

// Attachments are a message's attachments in their wire shape (nil for none).
func Attachments(list []store.Attachment) []wire.Attachment {
	if len(list) == 0 {
		return nil
	}
	out := make([]wire.Attachment, len(list))
	for i, a := range list {
		out[i] = Attachment(a)
	}
	return out
}
