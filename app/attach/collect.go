package attach

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CollectStats count what a collection removed.
type CollectStats struct {
	Attachments int64 // attachment rows no message listed, past the grace
	Blobs       int   // blob rows (and files) no attachment named
	Files       int   // files with no row: left by a crash or a failed commit
	Derived     int   // cached fitted images and thumbnails of removed blobs
	Bytes       int64 // the bytes of the files removed
}

// staleTemp is how old a leftover temporary file of the cache must be to go: one
// being written is seconds old.
const staleTemp = time.Hour

// Collect removes what nothing needs any more: the attachments no message lists
// that are older than Grace (an upload is linked only when its message is sent),
// the blobs no attachment names (row and file), files in the folder with no row
// (and temporary files a crash left), and the cached images of removed blobs. It
// holds the service's lock while it deletes, so an upload never names a blob that is
// going; the temporary files uploads are writing are left alone.
func (s *Service) Collect(ctx context.Context) (CollectStats, error) {
	var st CollectStats
	n, err := s.store.DeleteUnlistedAttachments(ctx, s.now().Add(-Grace))
	if err != nil {
		return st, err
	}
	st.Attachments = n
	s.mu.Lock()
	defer s.mu.Unlock()
	shas, err := s.store.DeleteUnnamedBlobs(ctx)
	if err != nil {
		return st, err
	}
	st.Blobs = len(shas)
	for _, sha := range shas {
		s.remove(s.BlobPath(sha), &st)
	}
	known, err := s.store.BlobHashes(ctx)
	if err != nil {
		return st, err
	}
	if err := s.collectShards(known, &st); err != nil {
		return st, err
	}
	s.collectTemps(&st)
	s.collectDerived(known, &st)
	if st != (CollectStats{}) {
		s.log.Info("attachments collected", "attachments", st.Attachments, "blobs", st.Blobs, "files", st.Files,
			"derived", st.Derived, "bytes", st.Bytes)
	}
	return st, nil
}

// collectShards removes files in the shard folders that no blob row names.
func (s *Service) collectShards(known map[string]bool, st *CollectStats) error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("read attachments folder: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || !isShard(e.Name()) {
			continue
		}
		shard := filepath.Join(s.dir, e.Name())
		files, err := os.ReadDir(shard)
		if err != nil {
			return fmt.Errorf("read attachments folder: %w", err)
		}
		for _, f := range files {
			if !known[f.Name()] && s.remove(filepath.Join(shard, f.Name()), st) {
				st.Files++
			}
		}
	}
	return nil
}

// collectTemps removes the upload files no upload is writing: a crash left them.
func (s *Service) collectTemps(st *CollectStats) {
	dir := filepath.Join(s.dir, tmpDir)
	files, err := os.ReadDir(dir)
	if err != nil {
		s.log.Warn("read upload folder", "err", err)
		return
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		s.tempMu.Lock()
		busy := s.writing[path]
		s.tempMu.Unlock()
		if !busy && s.remove(path, st) {
			st.Files++
		}
	}
}

// collectDerived removes cached images of blobs that are gone, and cache files a
// crash left half-written.
func (s *Service) collectDerived(known map[string]bool, st *CollectStats) {
	dir := filepath.Join(s.dir, derivedDir)
	files, err := os.ReadDir(dir)
	if err != nil {
		s.log.Warn("read derived folder", "err", err)
		return
	}
	for _, f := range files {
		name := f.Name()
		sha, _, _ := strings.Cut(name, ".")
		if strings.HasPrefix(name, ".derived-") {
			if info, err := f.Info(); err != nil || time.Since(info.ModTime()) < staleTemp {
				continue
			}
		} else if known[sha] {
			continue
		}
		if s.remove(filepath.Join(dir, name), st) {
			st.Derived++
		}
	}
}

// remove removes a file, counting its bytes; a missing file is not an error.
func (s *Service) remove(path string, st *CollectStats) bool {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err == nil && info.IsDir() {
		err = os.RemoveAll(path)
	} else if err == nil {
		err = os.Remove(path)
	}
	if err != nil {
		s.log.Warn("remove attachment file", "path", path, "err", err)
		return false
	}
	st.Bytes += info.Size()
	return true
}

// isShard reports whether a folder name is a blob shard: two hex digits.
func isShard(name string) bool {
	_, err := hex.DecodeString(name)
	return len(name) == 2 && err == nil && strings.ToLower(name) == name
}
