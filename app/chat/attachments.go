package chat

import (
	"context"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/docs"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime/llm"
)

// Attachments is what chat needs of the attachment service (app/attach.Service):
// the attachments a new message lists, and images fitted to a provider's limits.
type Attachments interface {
	// Resolve turns a new message's ids into its attachments, in order: an unknown
	// id is refused (400), too many files or bytes too (413).
	Resolve(ctx context.Context, ids []string) ([]store.Attachment, error)
	// Image is a stored image fitted to lim.
	Image(ctx context.Context, a store.Attachment, lim llm.ImageLimits) (llm.Image, error)
	// FitImage checks image bytes from elsewhere (the /v1 routes) and fits them to lim.
	FitImage(ctx context.Context, img llm.Image, lim llm.ImageLimits) (llm.Image, error)
}

// Documents is what chat needs of the document service (app/docs.Service): the text
// of a PDF or text attachment by page, and the excerpts of documents that match a
// question.
type Documents interface {
	Document(ctx context.Context, a store.Attachment) (docs.Document, error)
	Excerpts(ctx context.Context, shas []string, query string, limit int) ([]docs.Chunk, error)
}

// errNoAttachments refuses attachments when Wisp runs without the service.
var errNoAttachments = fault.Invalid.Errorf("attachments are not available")

// resolve checks a new message's attachment ids (none: nothing to check).
func (s *Service) resolve(ctx context.Context, ids []string) ([]store.Attachment, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if s.opts.Attachments == nil {
		return nil, errNoAttachments
	}
	return s.opts.Attachments.Resolve(ctx, ids)
}

// attachmentIDs are the ids of atts, in order.
func attachmentIDs(atts []store.Attachment) []string {
	if len(atts) == 0 {
		return nil
	}
	out := make([]string, len(atts))
	for i, a := range atts {
		out[i] = a.ID
	}
	return out
}

// fillAttachments lists on every message of msgs its attachments, in one query.
func (s *Service) fillAttachments(ctx context.Context, msgs []wire.Message) error {
	ids := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == wire.RoleUser {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	by, err := s.store.MessageAttachments(ctx, ids)
	if err != nil {
		return err
	}
	for i := range msgs {
		msgs[i].Attachments = view.Attachments(by[msgs[i].ID])
	}
	return nil
}

// imageLimits are the live provider's (nil: zero limits, the service's defaults).
func (s *Service) imageLimits() llm.ImageLimits {
	if s.opts.ImageLimits == nil {
		return llm.ImageLimits{}
	}
	return s.opts.ImageLimits()
}

// vision says whether the model sees images (nil: unknown, and images are sent).
func (s *Service) vision(ctx context.Context) llm.Vision {
	if s.opts.Vision == nil {
		return llm.VisionUnknown
	}
	return s.opts.Vision(ctx)
}

// withImages reports whether any of atts is an image.
func withImages(atts []store.Attachment) bool {
	for _, a := range atts {
		if wire.AttachmentKind(a.Blob.Kind) == wire.AttachmentImage {
			return true
		}
	}
	return false
}

// anyWithImages reports whether any of msgs has an image.
func anyWithImages(msgs []counted) bool {
	for _, c := range msgs {
		if withImages(c.atts) {
			return true
		}
	}
	return false
}

// pageAttachments are the attachments of a page of the branch's user messages, in
// one query.
func (s *Service) pageAttachments(ctx context.Context, page []store.CountedMessage) (map[string][]store.Attachment, error) {
	ids := make([]string, 0, len(page))
	for _, m := range page {
		if m.Message.Role == "user" {
			ids = append(ids, m.Message.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.store.MessageAttachments(ctx, ids)
}
