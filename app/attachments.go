package app

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/attach"
	"github.com/wispapp/wisp/app/docs"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/regular"
)

// attachmentsDir is the attachments' folder in the state folder.
const attachmentsDir = "attachments"

// collectEvery is how often the attachments no message needs are collected, and
// collectFirst when the first collection runs: not while Wisp starts (nothing is
// urgent: an attachment waits a day before it is collected).
const (
	collectEvery = time.Hour
	collectFirst = time.Minute
)

// newAttachments builds the attachments service in <state>/attachments, its limits
// read from the live settings at each use.
func (a *App) newAttachments(st *store.Store) (*attach.Service, error) {
	return attach.New(attach.Options{
		Dir: filepath.Join(a.stateDir, attachmentsDir), Store: st, Limits: a.attachLimits,
		Log: a.log.With("component", "attachments"),
	})
}

// importsDir is where a .zip being imported is kept while it is read
// (<state>/attachments/imports: on the state folder's disk, not in a /tmp that is
// often memory). An import removes its file when it ends; what a crash left there a
// day ago is removed now.
func (a *App) importsDir() string {
	dir := filepath.Join(a.stateDir, attachmentsDir, "imports")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		a.log.Warn("make the imports folder", "dir", dir, "err", err)
		return "" // the system's temporary folder
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				a.log.Warn("remove a stale import", "file", e.Name(), "err", err)
			}
		}
	}
	return dir
}

// attachLimits are the attachments' limits in the live settings.
func (a *App) attachLimits() attach.Limits {
	c := a.settings.Live().Attachments
	return attach.Limits{FileBytes: int64(c.FileMiB) << 20, MessageBytes: int64(c.MessageMiB) << 20,
		TotalBytes: int64(c.TotalMiB) << 20, MessageFiles: c.MessageFiles, MaxPixels: attach.DefaultMaxPixels}
}

// AttachFile stores a file the desktop's file picker chose as an attachment, under
// the same limits as an upload: only a regular file (not a pipe or a device, which
// could block or never end).
func (a *App) AttachFile(ctx context.Context, path string) (wire.Attachment, error) {
	c := a.core
	if c == nil || c.attach == nil {
		return wire.Attachment{}, fault.Unavailable.Errorf("Wisp is not running")
	}
	f, err := regular.Open(path, os.O_RDONLY, 0, regular.Follow)
	if err != nil {
		var notRegular *regular.NotRegularError
		switch {
		case errors.As(err, &notRegular):
			return wire.Attachment{}, fault.Invalid.Errorf("%s is %s: only files can be attached", filepath.Base(path), notRegular.What())
		case errors.Is(err, fs.ErrNotExist):
			return wire.Attachment{}, fault.NotFound.Errorf("%s does not exist", path)
		}
		return wire.Attachment{}, fault.Invalid.Errorf("cannot read %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil {
		if limit := a.attachLimits().FileBytes; limit > 0 && info.Size() > limit {
			return wire.Attachment{}, fault.TooLarge.Errorf("%s is larger than %s, the limit for one attachment",
				filepath.Base(path), regular.Size(limit))
		}
	}
	at, err := c.attach.Upload(ctx, filepath.Base(path), "", f)
	if err != nil {
		return wire.Attachment{}, err
	}
	c.docs.Prepare(at) // a document's text is read while the user writes
	return view.Attachment(at), nil
}

// attachAPI serves the attachments' routes from the service; an uploaded document's
// text starts being read at once, so the turn that sends it rarely waits.
type attachAPI struct {
	s    *attach.Service
	docs *docs.Service
}

var _ api.Attachments = attachAPI{}

func (x attachAPI) Upload(ctx context.Context, name, declaredType string, body io.Reader) (wire.Attachment, error) {
	a, err := x.s.Upload(ctx, name, declaredType, body)
	if err != nil {
		return wire.Attachment{}, err
	}
	x.docs.Prepare(a)
	return view.Attachment(a), nil
}

func (x attachAPI) Open(ctx context.Context, id string) (wire.Attachment, io.ReadSeekCloser, error) {
	a, err := x.s.Get(ctx, id)
	if err != nil {
		return wire.Attachment{}, nil, err
	}
	f, err := x.s.Open(ctx, a)
	if err != nil {
		return wire.Attachment{}, nil, err
	}
	return view.Attachment(a), f, nil
}

func (x attachAPI) Thumbnail(ctx context.Context, id string) ([]byte, string, error) {
	return x.s.Thumbnail(ctx, id)
}

func (x attachAPI) UploadLimit() int64 { return x.s.Limits().FileBytes }

// collector runs the attachments' garbage collection once Wisp has started and then
// every collectEvery, in its own goroutine: never on a request's path.
type collector struct {
	s      *attach.Service
	log    *slog.Logger
	every  time.Duration
	first  time.Duration // until the first collection
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (c *collector) Start(context.Context) error {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.wg.Go(func() {
		t := time.NewTimer(c.first)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if _, err := c.s.Collect(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("collect attachments", "err", err)
			}
			t.Reset(c.every)
		}
	})
	return nil
}

func (c *collector) Stop() {
	c.cancel()
	c.wg.Wait()
}
