package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/fault"
)

// Blobs are the attachments' bytes (app/attach's service): Open reads a stored
// file's, Upload stores new ones as an upload does (its bytes read for their type,
// kind and hash, within the attachment limits) and answers the attachment made.
type Blobs interface {
	Open(ctx context.Context, a store.Attachment) (*os.File, error)
	Upload(ctx context.Context, name, declaredType string, body io.Reader) (store.Attachment, error)
}

// JSONInlineMaxBytes bounds the files a JSON export carries inline (base64): an
// export whose attachments are bigger in all is a .zip (format=zip).
const JSONInlineMaxBytes = 8 << 20

// maxMessageAttachments bounds the files one imported message lists.
const maxMessageAttachments = 100

// shaPattern is a SHA-256 in hex as Wisp writes it.
var shaPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// exportAttachments are a message's attachments in the export's shape, without
// their bytes.
func exportAttachments(as []store.Attachment) []Attachment {
	if len(as) == 0 {
		return nil
	}
	out := make([]Attachment, len(as))
	for i, a := range as {
		out[i] = Attachment{ID: a.ID, Name: a.Name, MIME: a.Blob.MIME, Size: a.Blob.Size, SHA256: a.SHA256, Kind: a.Blob.Kind}
	}
	return out
}

// checkInline refuses a JSON export whose attachments are too big to carry inline
// (ids nil: every conversation's).
func (s *Service) checkInline(ctx context.Context, ids []string) error {
	if s.blobs == nil {
		return nil
	}
	n, err := s.store.AttachmentBytes(ctx, ids)
	if err != nil {
		return err
	}
	if n > JSONInlineMaxBytes {
		return fault.TooLarge.Errorf("the attachments of this export are %.1f MiB, more than a JSON export carries (%d MiB): export it as a .zip (format=zip)",
			float64(n)/(1<<20), JSONInlineMaxBytes>>20)
	}
	return nil
}

// fillData reads the bytes of every attachment of c into it (a JSON export's).
func (s *Service) fillData(ctx context.Context, c *Conversation, byID map[string][]store.Attachment) error {
	for i := range c.Messages {
		m := &c.Messages[i]
		for j := range m.Attachments {
			data, err := s.readBlob(ctx, byID[m.ID][j])
			if err != nil {
				return err
			}
			m.Attachments[j].Data = data
		}
	}
	return nil
}

// readBlob is an attachment's bytes, checked against its hash: a file changed on
// disk is not exported as if it were the one listed.
func (s *Service) readBlob(ctx context.Context, a store.Attachment) ([]byte, error) {
	f, err := s.blobs.Open(ctx, a)
	if err != nil {
		return nil, fmt.Errorf("open attachment %s: %w", a.ID, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, a.Blob.Size+1))
	if err != nil {
		return nil, fmt.Errorf("read attachment %s: %w", a.ID, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != a.SHA256 {
		return nil, fmt.Errorf("attachment %s: its file does not hash to %s", a.ID, a.SHA256)
	}
	return data, nil
}

// fileRef is an attachment of an imported message, checked: its bytes are Data (a
// JSON file's) or the zip's entry attachments/<SHA256>.
type fileRef struct {
	id, name, mime, sha string
	size                int64
	data                []byte
}

// attachments checks the attachments of an imported message.
func (k *checker) attachments(path string, as []Attachment) []fileRef {
	if len(as) > maxMessageAttachments {
		k.fail(path, "lists %d files: at most %d are read", len(as), maxMessageAttachments)
		return nil
	}
	out := make([]fileRef, 0, len(as))
	for i, a := range as {
		p := fmt.Sprintf("%s[%d]", path, i)
		ref := fileRef{id: a.ID, name: a.Name, mime: k.short(p+".mime", a.MIME), sha: a.SHA256, size: a.Size, data: a.Data}
		if a.ID != "" && !idPattern.MatchString(a.ID) {
			k.fail(p+".id", "%q is not an id", clip(a.ID))
		}
		if a.Name == "" || len(a.Name) > 255 {
			k.fail(p+".name", "is required, at most 255 bytes")
		}
		if !shaPattern.MatchString(a.SHA256) {
			k.fail(p+".sha256", "%q is not a SHA-256 in lower-case hex", clip(a.SHA256))
			continue
		}
		if a.Size < 0 {
			k.fail(p+".size", "is negative")
		}
		if a.Data != nil {
			if sum := sha256.Sum256(a.Data); hex.EncodeToString(sum[:]) != a.SHA256 || int64(len(a.Data)) != a.Size {
				k.fail(p+".data", "is not the file named: its bytes do not have that SHA-256 and size")
			}
		}
		out = append(out, ref)
	}
	return out
}

// errNoBlobs refuses the attachments of an import where Wisp keeps none.
var errNoBlobs = fault.Invalid.Errorf("the file has attachments, and this Wisp does not store attachments")

// needData refuses a checked file whose attachments have no bytes: a JSON file must
// carry them inline (has, for a zip, tells whether it holds a SHA-256's entry).
func needData(convs []checked, blobs Blobs, has func(sha string) bool) error {
	for _, c := range convs {
		for i, refs := range c.files {
			for j, f := range refs {
				switch {
				case blobs == nil:
					return errNoBlobs
				case f.data == nil && (has == nil || !has(f.sha)):
					where := fmt.Sprintf("conversation %q, message %q, attachment %d", clip(c.conv.ID), clip(c.messages[i].ID), j)
					if has == nil {
						return fault.Invalid.Errorf("%s: its bytes (data) are not in the file: import the .zip export instead", where)
					}
					return fault.Invalid.Errorf("%s: the zip has no attachments/%s", where, f.sha)
				}
			}
		}
	}
	return nil
}

// storeFiles stores the files of a conversation about to be saved (open gives a
// zip entry's bytes) and lists their attachments on its messages. An attachment
// keeps the id it had when it can (the same file under that id, or a free id): the
// export of an import is the file imported. What is stored for a conversation that
// then fails is collected with the other unlisted attachments.
func (s *Service) storeFiles(ctx context.Context, c *checked, open func(sha string) (io.ReadCloser, error), ids map[string]string) error {
	for i, refs := range c.files {
		for _, f := range refs {
			key := f.id + "/" + f.sha
			id, ok := ids[key]
			if !ok {
				a, err := s.storeFile(ctx, f, open)
				if err != nil {
					return err
				}
				id = a.ID
				ids[key] = id
			}
			c.messages[i].AttachmentIDs = append(c.messages[i].AttachmentIDs, id)
		}
	}
	return nil
}

func (s *Service) storeFile(ctx context.Context, f fileRef, open func(sha string) (io.ReadCloser, error)) (store.Attachment, error) {
	if f.id != "" {
		if a, err := s.store.GetAttachment(ctx, f.id); err == nil && a.SHA256 == f.sha {
			return a, nil // Wisp has this very file under this id: nothing to store
		}
	}
	var body io.ReadCloser
	if f.data != nil {
		body = io.NopCloser(bytes.NewReader(f.data))
	} else {
		var err error
		if body, err = open(f.sha); err != nil {
			return store.Attachment{}, err
		}
	}
	defer body.Close()
	a, err := s.blobs.Upload(ctx, f.name, f.mime, body)
	if err != nil {
		return store.Attachment{}, fmt.Errorf("attachment %q: %w", clip(f.name), err)
	}
	if a.SHA256 != f.sha {
		return store.Attachment{}, fault.Invalid.Errorf("attachment %q: its bytes do not have the SHA-256 the file names (%s)", clip(f.name), f.sha)
	}
	if f.id == "" || f.id == a.ID {
		return a, nil
	}
	if old, err := s.store.GetAttachment(ctx, f.id); err == nil {
		if old.SHA256 == a.SHA256 {
			return old, nil // the same file under that id
		}
		return a, nil // the id is another file's
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.Attachment{}, err
	}
	kept, err := s.store.CreateAttachment(ctx, store.Attachment{ID: f.id, SHA256: a.SHA256, Name: a.Name, CreatedAt: s.now()})
	if err != nil {
		return a, nil // taken meanwhile: the new id does
	}
	return kept, nil
}
