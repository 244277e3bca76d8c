package archive

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// A .zip export: conversations.json (the JSON export, its attachments without their
// bytes) and attachments/<sha256>, each file once. An import reads a zip only
// within these bounds: it is untrusted, and a small zip can claim gigabytes.
const (
	ZipDocument      = "conversations.json"
	zipAttachments   = "attachments/"
	MaxZipEntries    = 100_000
	MaxZipEntryBytes = 1 << 30 // one file, uncompressed
	MaxZipBytes      = 4 << 30 // every entry, uncompressed
	MaxZipDocBytes   = 64 << 20
)

// writeZip streams the zip: conversations.json as each conversation is read (the
// files they list are noted), then each file noted, once.
func (e *Export) writeZip(ctx context.Context, w io.Writer) error {
	zw := zip.NewWriter(w)
	doc, err := zw.CreateHeader(&zip.FileHeader{Name: ZipDocument, Method: zip.Deflate, Modified: e.at})
	if err != nil {
		return err
	}
	files := map[string]store.Attachment{}
	note := func(_ context.Context, r records, _ *Conversation) error {
		for _, as := range r.files {
			for _, a := range as {
				files[a.SHA256] = a
			}
		}
		return nil
	}
	if err := e.writeJSON(ctx, doc, note); err != nil {
		return err
	}
	if e.s.blobs != nil {
		for _, sha := range slices.Sorted(maps.Keys(files)) {
			if err := e.writeZipFile(ctx, zw, files[sha]); err != nil {
				return err
			}
		}
	}
	return zw.Close()
}

// writeZipFile adds one attachment's bytes, checked against its hash and size.
func (e *Export) writeZipFile(ctx context.Context, zw *zip.Writer, a store.Attachment) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	method := zip.Deflate
	if a.Blob.Kind == "image" || a.Blob.Kind == "pdf" {
		method = zip.Store // compressed already
	}
	f, err := e.s.blobs.Open(ctx, a)
	if err != nil {
		return fmt.Errorf("open attachment %s: %w", a.ID, err)
	}
	defer f.Close()
	w, err := zw.CreateHeader(&zip.FileHeader{Name: zipAttachments + a.SHA256, Method: method, Modified: e.at})
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(f, a.Blob.Size+1))
	if err != nil {
		return fmt.Errorf("write attachment %s: %w", a.ID, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); n != a.Blob.Size || sum != a.SHA256 {
		return fmt.Errorf("attachment %s: its file is not the one listed (%d bytes, SHA-256 %s)", a.ID, n, sum)
	}
	return nil
}

// ImportZip brings in a .zip export (or any zip with a conversations.json, ChatGPT's
// export among them) of size bytes read through r. The zip is checked whole first
// (its entries, its bounds, conversations.json, and that every attachment listed
// has its entry); then each conversation is saved as Import saves it, its files
// read from their entries as they are stored.
func (s *Service) ImportZip(ctx context.Context, r io.ReaderAt, size int64, src Source) (wire.ImportResult, error) {
	empty := wire.ImportResult{Conversations: []string{}, Failed: []wire.ImportFailure{}}
	entries, err := zipEntries(r, size)
	if err != nil {
		return empty, err
	}
	docFile := entries[ZipDocument]
	if docFile == nil {
		return empty, fault.Invalid.Errorf("the zip has no %s: it is not a Wisp or ChatGPT export", ZipDocument)
	}
	data, err := readEntry(docFile, MaxZipDocBytes)
	if err != nil {
		return empty, err
	}
	convs, src, err := decodeFile(data, src, s.now())
	if err != nil {
		return empty, err
	}
	data = nil
	has := func(sha string) bool { return entries[zipAttachments+sha] != nil }
	if err := needData(convs, s.blobs, has); err != nil {
		return empty, err
	}
	open := func(sha string) (io.ReadCloser, error) {
		rc, err := entries[zipAttachments+sha].Open()
		if err != nil {
			return nil, fault.Invalid.Errorf("the zip's attachments/%s cannot be read: %v", sha, err)
		}
		return invalidOnError{rc, sha}, nil
	}
	return s.importChecked(ctx, convs, src, open)
}

// zipEntries reads a zip's directory within the bounds: at most MaxZipEntries
// entries, none above MaxZipEntryBytes or MaxZipBytes in all (uncompressed, as the
// directory says: the reader refuses an entry that holds more), no name twice, and
// none that climbs out (../) or starts at a root: a file made to hurt is refused
// whole, though nothing is ever written where an entry's name says.
func zipEntries(r io.ReaderAt, size int64) (map[string]*zip.File, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fault.Invalid.Errorf("the file is not a zip Wisp reads: %v", err)
	}
	if len(zr.File) > MaxZipEntries {
		return nil, fault.Invalid.Errorf("the zip has %d entries: more than %d is refused", len(zr.File), MaxZipEntries)
	}
	out := make(map[string]*zip.File, len(zr.File))
	var total uint64
	for _, f := range zr.File {
		if err := checkEntryName(f.Name); err != nil {
			return nil, err
		}
		if out[f.Name] != nil {
			return nil, fault.Invalid.Errorf("the zip has %q twice", clip(f.Name))
		}
		if f.UncompressedSize64 > MaxZipEntryBytes {
			return nil, fault.Invalid.Errorf("the zip's %q is %d bytes: more than %d is refused", clip(f.Name), f.UncompressedSize64, int64(MaxZipEntryBytes))
		}
		if total += f.UncompressedSize64; total > MaxZipBytes {
			return nil, fault.Invalid.Errorf("the zip holds more than %d GiB uncompressed: refused", MaxZipBytes>>30)
		}
		out[f.Name] = f
	}
	return out, nil
}

// checkEntryName refuses an entry name that is absolute, climbs (..), has a
// backslash, a NUL or a control character.
func checkEntryName(name string) error {
	bad := name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\\x00") || len(name) > 1024 ||
		(len(name) > 1 && name[1] == ':')
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			bad = true
		}
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			bad = true
		}
	}
	if bad {
		return fault.Invalid.Errorf("the zip has an entry named %q: absolute names, .., backslashes and control characters are refused", clip(name))
	}
	return nil
}

// readEntry is an entry's bytes, at most max.
func readEntry(f *zip.File, max int64) ([]byte, error) {
	if f.UncompressedSize64 > uint64(max) {
		return nil, fault.Invalid.Errorf("the zip's %s is %d bytes: more than %d is refused", clip(f.Name), f.UncompressedSize64, max)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fault.Invalid.Errorf("the zip's %s cannot be read: %v", clip(f.Name), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, fault.Invalid.Errorf("the zip's %s cannot be read: %v", clip(f.Name), err)
	}
	if int64(len(data)) > max {
		return nil, fault.Invalid.Errorf("the zip's %s is more than %d bytes", clip(f.Name), max)
	}
	return data, nil
}

// invalidOnError makes a failed read of a zip entry (a bad checksum, a cut or
// lying entry) an error of the file, not of Wisp.
type invalidOnError struct {
	io.ReadCloser
	sha string
}

func (r invalidOnError) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fault.Invalid.Errorf("the zip's attachments/%s cannot be read: %v", r.sha, err)
	}
	return n, err
}

// ErrBodyRead wraps a failure to read a zip being imported (the client went away,
// or sent more than it may): the file's fault or the connection's, not Wisp's.
var ErrBodyRead = errors.New("could not read the file")

// ImportZipFrom brings in a zip read from r: it is written to a temporary file
// first (a zip is read from its end), at most max bytes (more is fault.TooLarge),
// and removed after.
func (s *Service) ImportZipFrom(ctx context.Context, r io.Reader, max int64, src Source) (wire.ImportResult, error) {
	empty := wire.ImportResult{Conversations: []string{}, Failed: []wire.ImportFailure{}}
	f, err := os.CreateTemp(s.tempDir, "wisp-import-*.zip")
	if err != nil {
		return empty, fmt.Errorf("import zip: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := io.Copy(f, io.LimitReader(r, max+1))
	if err != nil {
		return empty, fmt.Errorf("%w: %w", ErrBodyRead, err)
	}
	if n > max {
		return empty, fault.TooLarge.Errorf("the zip is larger than %d MiB", max>>20)
	}
	return s.ImportZip(ctx, f, n, src)
}
