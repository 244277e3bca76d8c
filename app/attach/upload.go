package attach

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/internal/regular"
)

// copyBuffer is the size of the upload's reads and writes.
const copyBuffer = 256 << 10

// Upload stores body as a new attachment named name (cleaned): streamed to a
// temporary file while it is hashed and sniffed, refused the moment it passes the
// file limit, then synced and renamed to its blob path. Nothing is left of an upload
// that fails or is cut. The declared type is only logged: the bytes decide.
//
// The same bytes uploaded twice are one blob (file and row) named by two attachments:
// each upload is its own attachment, whatever its name.
func (s *Service) Upload(ctx context.Context, name, declaredType string, body io.Reader) (store.Attachment, error) {
	lim := s.limits()
	name = CleanName(name)
	if err := s.checkRoom(ctx, lim, 0); err != nil {
		return store.Attachment{}, err
	}
	tmp, err := s.createTemp()
	if err != nil {
		return store.Attachment{}, err
	}
	defer s.dropTemp(tmp)
	w, err := s.receive(ctx, tmp, body, name, lim)
	if err != nil {
		return store.Attachment{}, err
	}
	at := s.now()
	b := store.Blob{SHA256: w.sha, Size: w.n, MIME: w.kind.MIME, Kind: string(w.kind.Kind), Width: w.kind.Width,
		Height: w.kind.Height, CreatedAt: at}
	a, err := s.commit(ctx, tmp.Name(), b, name, lim)
	if err != nil {
		return store.Attachment{}, err
	}
	s.log.Info("attachment stored", "id", a.ID, "sha256", a.SHA256, "size", a.Blob.Size, "mime", a.Blob.MIME,
		"kind", a.Blob.Kind, "declared", declaredType)
	return a, nil
}

// received is what an upload's bytes turned out to be.
type received struct {
	sha  string
	n    int64
	kind sniffed
}

// receive copies body into tmp, bounded by the file limit, then syncs it and says
// what it is.
func (s *Service) receive(ctx context.Context, tmp *os.File, body io.Reader, name string, lim Limits) (received, error) {
	sn := &sniffer{}
	h := startHashing(sn)
	src := io.Reader(ctxReader{ctx, body})
	if lim.FileBytes > 0 {
		src = io.LimitReader(src, lim.FileBytes+1)
	}
	file := &fileWriter{f: tmp}
	n, err := h.copy(file, src)
	sum := h.sum()
	switch {
	case file.err != nil:
		return received{}, fmt.Errorf("write upload: %w", file.err)
	case err != nil && ctx.Err() != nil:
		return received{}, fault.Invalid.Errorf("the upload was cut before its end: nothing was stored (%w)", ctx.Err())
	case err != nil:
		return received{}, readError(err)
	case lim.FileBytes > 0 && n > lim.FileBytes:
		return received{}, fault.TooLarge.Errorf("the file is larger than %s, the limit for one attachment",
			regular.Size(lim.FileBytes))
	}
	if err := tmp.Sync(); err != nil {
		return received{}, fmt.Errorf("sync upload: %w", err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return received{}, fmt.Errorf("read upload back: %w", err)
	}
	kind, err := classify(sn.head, sn.text(), bufio.NewReader(tmp), name, lim.MaxPixels)
	if err != nil {
		return received{}, err
	}
	return received{sha: sum, n: n, kind: kind}, nil
}

// hashing hashes and sniffs what an upload copies in a goroutine of its own, so
// that the hash of one piece overlaps the read and the write of the next (the
// SHA-256 of a large body otherwise costs as much as writing it: bench/upload).
type hashing struct {
	pieces chan []byte // to hash, in order
	free   chan []byte // hashed: the copy reuses them
	done   chan string
}

// hashBuffers is how many pieces may wait to be hashed.
const hashBuffers = 4

// startHashing starts the goroutine; sn sees every piece too, and may be read once
// sum has answered.
func startHashing(sn *sniffer) *hashing {
	h := &hashing{pieces: make(chan []byte, hashBuffers), free: make(chan []byte, hashBuffers), done: make(chan string, 1)}
	for range hashBuffers {
		h.free <- make([]byte, copyBuffer)
	}
	go func() {
		d := sha256.New()
		for p := range h.pieces {
			d.Write(p)
			sn.Write(p)
			h.free <- p[:cap(p)]
		}
		h.done <- hex.EncodeToString(d.Sum(nil))
	}()
	return h
}

// copy copies src to dst, handing each piece to the hash once written. The caller
// calls sum afterwards, whatever copy answered.
func (h *hashing) copy(dst io.Writer, src io.Reader) (int64, error) {
	var n int64
	for {
		buf := <-h.free
		k, rerr := src.Read(buf)
		if k > 0 {
			if _, err := dst.Write(buf[:k]); err != nil {
				h.free <- buf
				return n, err
			}
			n += int64(k)
			h.pieces <- buf[:k]
		} else {
			h.free <- buf
		}
		switch {
		case rerr == io.EOF:
			return n, nil
		case rerr != nil:
			return n, rerr
		}
	}
}

// sum waits for the hash of everything copied and ends its goroutine.
func (h *hashing) sum() string {
	close(h.pieces)
	return <-h.done
}

// readError is the fault of a body that could not be read to its end: a client
// that went away, or a body cut short.
func readError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fault.Invalid.Errorf("the upload was cut before its end: nothing was stored")
	}
	var f *fault.Error
	if errors.As(err, &f) {
		return err
	}
	return fault.Invalid.Errorf("the upload could not be read: nothing was stored (%w)", err)
}

// fileWriter keeps the error of a write to the temporary file apart from the
// body's read errors (the disk failing is Wisp's failure, not the client's), and
// starts the writeback of every writebackEvery bytes as they come.
type fileWriter struct {
	f        *os.File
	err      error
	n, flush int64 // written; handed to the writeback
}

// writebackEvery is how many written bytes start their writeback to disk.
const writebackEvery = 8 << 20

func (w *fileWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.err = err
	}
	w.n += int64(n)
	if w.n-w.flush >= writebackEvery {
		startWriteback(w.f.Fd(), w.flush, w.n-w.flush)
		w.flush = w.n
	}
	return n, err
}

// checkRoom refuses an upload when the folder's blobs and adding more would pass
// the folder's limit.
func (s *Service) checkRoom(ctx context.Context, lim Limits, adding int64) error {
	if lim.TotalBytes <= 0 {
		return nil
	}
	used, err := s.store.BlobBytes(ctx)
	if err != nil {
		return err
	}
	if used+adding > lim.TotalBytes || (adding == 0 && used >= lim.TotalBytes) {
		return fault.TooLarge.Errorf("the attachments take %s of the %s they may use: delete conversations with attachments, or raise attachments.totalMiB",
			size(used), regular.Size(lim.TotalBytes))
	}
	return nil
}

// commit moves the synced temporary file to its blob path (unless the blob is
// there already) and records the blob and the attachment, exclusive of the garbage
// collection.
func (s *Service) commit(ctx context.Context, tmp string, b store.Blob, name string, lim Limits) (store.Attachment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	known, err := s.store.GetBlob(ctx, b.SHA256)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if err := s.checkRoom(ctx, lim, b.Size); err != nil {
			return store.Attachment{}, err
		}
		if err := s.place(tmp, b.SHA256); err != nil {
			return store.Attachment{}, err
		}
		if _, err := s.store.PutBlob(ctx, b); err != nil {
			return store.Attachment{}, err
		}
	case err != nil:
		return store.Attachment{}, err
	default:
		b = known
		if _, err := os.Lstat(s.BlobPath(b.SHA256)); errors.Is(err, fs.ErrNotExist) {
			if err := s.place(tmp, b.SHA256); err != nil { // the file was lost: this upload brings it back
				return store.Attachment{}, err
			}
		}
	}
	return s.store.CreateAttachment(ctx, store.Attachment{ID: ids.New(), SHA256: b.SHA256, Name: name, CreatedAt: s.now()})
}

// place renames a synced temporary file to the blob path of sha and syncs the shard
// folder, so that the name survives a crash.
func (s *Service) place(tmp, sha string) error {
	dst := s.BlobPath(sha)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("blob folder: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("place blob: %w", err)
	}
	if d, err := os.Open(filepath.Dir(dst)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// createTemp makes a temporary file in <Dir>/tmp and marks it as being written.
func (s *Service) createTemp() (*os.File, error) {
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), "upload-*")
	if err != nil {
		return nil, fmt.Errorf("upload file: %w", err)
	}
	s.tempMu.Lock()
	s.writing[f.Name()] = true
	s.tempMu.Unlock()
	return f, nil
}

// dropTemp closes a temporary file and removes it unless it was placed.
func (s *Service) dropTemp(f *os.File) {
	f.Close()
	if err := os.Remove(f.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("remove upload file", "path", f.Name(), "err", err)
	}
	s.tempMu.Lock()
	delete(s.writing, f.Name())
	s.tempMu.Unlock()
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
