package archive

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Import brings in the conversations of a Wisp export or of ChatGPT's export. The
// whole file is read and checked first: a bad one (fault.Invalid) changes nothing.
// Then each conversation is saved in its own transaction, all of it or nothing (its
// messages in their places in the tree, and its active leaf): one whose id Wisp
// already has is skipped whole (never merged), one whose records clash with records
// Wisp has, or that has nothing to bring in (checked.notSaved), is reported as
// failed. Each new conversation is announced with a conversation-updated
// frame.
func (s *Service) Import(ctx context.Context, data []byte, src Source) (wire.ImportResult, error) {
	convs, src, err := decodeFile(data, src, s.now())
	if err == nil {
		err = needData(convs, s.blobs, nil)
	}
	if err != nil {
		return wire.ImportResult{Conversations: []string{}, Failed: []wire.ImportFailure{}}, err
	}
	return s.importChecked(ctx, convs, src, nil)
}

// importChecked saves the checked conversations of a file; open gives the bytes of
// an attachment a zip holds apart (nil for a JSON file, whose attachments are inline).
// A conversation's files are stored before it is saved: one that cannot be (too big
// for the attachment limits, not the bytes named) makes it fail.
func (s *Service) importChecked(ctx context.Context, convs []checked, src Source, open func(sha string) (io.ReadCloser, error)) (wire.ImportResult, error) {
	res := wire.ImportResult{Conversations: []string{}, Failed: []wire.ImportFailure{}}
	ids := map[string]string{} // an attachment's id/sha in the file → the one saved
	for _, c := range convs {
		if c.notSaved != "" {
			res.Failed = append(res.Failed, wire.ImportFailure{ID: c.conv.ID, Title: c.conv.Title, Error: c.notSaved})
			continue
		}
		if c.files != nil {
			if _, err := s.store.Conversation(ctx, c.conv.ID); err == nil {
				res.Skipped++ // there already: its files are not stored again
				continue
			}
			if err := s.storeFiles(ctx, &c, open, ids); err != nil {
				if fault.KindOf(err) == fault.Internal {
					return res, fmt.Errorf("import conversation %s: %w", c.conv.ID, err)
				}
				res.Failed = append(res.Failed, wire.ImportFailure{ID: c.conv.ID, Title: c.conv.Title, Error: err.Error()})
				continue
			}
		}
		created, err := s.save(ctx, c)
		switch {
		case err == nil && created:
			res.Imported++
			res.Conversations = append(res.Conversations, c.conv.ID)
			s.events.Publish(wire.NewConversationUpdated(view.Conversation(c.conv)))
		case err == nil:
			res.Skipped++
		case errors.Is(err, store.ErrDuplicate):
			res.Failed = append(res.Failed, wire.ImportFailure{ID: c.conv.ID, Title: c.conv.Title,
				Error: "a message, display message or run of it has an id another conversation already uses"})
		default:
			return res, fmt.Errorf("import conversation %s: %w", c.conv.ID, err)
		}
	}
	s.log.Info("import", "source", string(src), "conversations", len(convs), "imported", res.Imported,
		"skipped", res.Skipped, "failed", len(res.Failed))
	return res, nil
}

// save saves one conversation with everything in it, in one transaction; false when
// Wisp already has a conversation with its id.
func (s *Service) save(ctx context.Context, c checked) (bool, error) {
	created := false
	err := s.store.InTx(ctx, func(t *store.Tx) error {
		if _, err := t.Conversation(ctx, c.conv.ID); err == nil {
			return nil
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := t.ImportConversation(ctx, c.conv); err != nil {
			return err
		}
		for _, m := range c.messages { // parents first, as the file lists them
			if err := t.ImportMessage(ctx, m); err != nil {
				return err
			}
		}
		if c.leaf != "" {
			if err := t.SetActiveLeaf(ctx, c.conv.ID, c.leaf); err != nil {
				return err
			}
		}
		for _, d := range c.display {
			if err := t.ImportDisplayMessage(ctx, d); err != nil {
				return err
			}
		}
		for _, r := range c.runs {
			if err := t.ImportRun(ctx, r.run, r.output); err != nil {
				return err
			}
		}
		created = true
		return nil
	})
	return created && err == nil, err
}
