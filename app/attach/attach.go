// Package attach owns the files users attach to messages: the upload (streamed to a
// temporary file while it is hashed and sniffed, bounded, then renamed into place so
// that a cut upload leaves nothing), the blob files stored once per SHA-256 under
// <state>/attachments, the cleaned names, the limits (per file, per message, for the
// folder, and an image's pixels), images fitted to a provider's limits and thumbnails
// (decoded one at a time, cached on disk), and the garbage collection of what no
// message lists. See docs/attachments.md.
//
// It reads and writes the store's blobs and attachments; it knows nothing of HTTP,
// chat or the providers beyond llm's image types.
package attach

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/regular"
)

// Limits bound what may be attached. A zero field is no bound.
type Limits struct {
	FileBytes    int64 // one file
	MessageBytes int64 // the files of one message together
	TotalBytes   int64 // every stored blob together
	MessageFiles int   // files on one message
	MaxPixels    int64 // an image's width × height
}

// The default limits.
const (
	DefaultFileBytes    = 20 << 20
	DefaultMessageBytes = 50 << 20
	DefaultMessageFiles = 10
	DefaultTotalBytes   = 2 << 30
	DefaultMaxPixels    = 50_000_000
)

// DefaultLimits are the limits of a fresh installation.
func DefaultLimits() Limits {
	return Limits{FileBytes: DefaultFileBytes, MessageBytes: DefaultMessageBytes, TotalBytes: DefaultTotalBytes,
		MessageFiles: DefaultMessageFiles, MaxPixels: DefaultMaxPixels}
}

// Grace is how long an attachment no message lists is kept: an upload is linked to
// its message only when the message is sent.
const Grace = 24 * time.Hour

// Options are what a Service needs.
type Options struct {
	Dir    string // <state>/attachments
	Store  *store.Store
	Limits func() Limits // read at each use (the settings are hot); nil: DefaultLimits
	Log    *slog.Logger
	Now    func() time.Time
}

// Service stores and serves attachments.
type Service struct {
	dir    string
	store  *store.Store
	limits func() Limits
	log    *slog.Logger
	now    func() time.Time

	// mu makes an upload's commit (blob file, blob row, attachment row) and the
	// garbage collection's deletes exclusive: a blob is never deleted between an
	// upload finding it and naming it.
	mu sync.Mutex
	// tempMu guards writing: the temporary files uploads are writing now, which the
	// collection leaves alone.
	tempMu  sync.Mutex
	writing map[string]bool
	// decode is held while an image is decoded: one at a time bounds the memory to
	// one image of at most MaxPixels pixels.
	decode chan struct{}
}

// New makes the attachments folder (its tmp and derived folders) and the service.
func New(o Options) (*Service, error) {
	if o.Dir == "" || o.Store == nil {
		return nil, errors.New("attach: a folder and a store are required")
	}
	if o.Limits == nil {
		o.Limits = DefaultLimits
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	for _, d := range []string{o.Dir, filepath.Join(o.Dir, tmpDir), filepath.Join(o.Dir, derivedDir)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("attachments folder: %w", err)
		}
	}
	return &Service{dir: o.Dir, store: o.Store, limits: o.Limits, log: o.Log, now: o.Now,
		writing: map[string]bool{}, decode: make(chan struct{}, 1)}, nil
}

// The folders beside the blobs' shards.
const (
	tmpDir     = "tmp"
	derivedDir = "derived"
)

// Limits are the limits in force now.
func (s *Service) Limits() Limits { return s.limits() }

// BlobPath is where the bytes of the blob with hash sha are: <Dir>/<sha[:2]>/<sha>.
func (s *Service) BlobPath(sha string) string {
	if len(sha) < 2 {
		return filepath.Join(s.dir, "_", sha)
	}
	return filepath.Join(s.dir, sha[:2], sha)
}

// Get returns an attachment with its blob; a NotFound fault when there is none.
func (s *Service) Get(ctx context.Context, id string) (store.Attachment, error) {
	a, err := s.store.GetAttachment(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Attachment{}, fault.NotFound.Errorf("attachment %s not found", id)
	}
	return a, err
}

// Open opens an attachment's bytes.
func (s *Service) Open(_ context.Context, a store.Attachment) (*os.File, error) {
	f, err := regular.Open(s.BlobPath(a.SHA256), os.O_RDONLY, 0, regular.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fault.NotFound.Errorf("the bytes of attachment %s are missing", a.ID)
	}
	return f, err
}

// Resolve returns the attachments a new message lists, in order. An unknown id is an
// Invalid fault naming it; more files or bytes than a message may carry a TooLarge
// one.
func (s *Service) Resolve(ctx context.Context, ids []string) ([]store.Attachment, error) {
	lim := s.limits()
	if lim.MessageFiles > 0 && len(ids) > lim.MessageFiles {
		return nil, fault.TooLarge.Errorf("a message carries at most %d attachments, got %d", lim.MessageFiles, len(ids))
	}
	out := make([]store.Attachment, 0, len(ids))
	var total int64
	for _, id := range ids {
		a, err := s.store.GetAttachment(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fault.Invalid.Errorf("unknown attachment %q: upload it again", id)
		}
		if err != nil {
			return nil, err
		}
		total += a.Blob.Size
		out = append(out, a)
	}
	if lim.MessageBytes > 0 && total > lim.MessageBytes {
		return nil, fault.TooLarge.Errorf("the attachments of one message may total %s, these are %s",
			regular.Size(lim.MessageBytes), size(total))
	}
	return out, nil
}

// size writes a byte count for a person: "3.2 MiB".
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
