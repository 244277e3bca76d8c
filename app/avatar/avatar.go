// Package avatar keeps the user's own character: one VRM model in <state>/avatar,
// validated before it is stored (Validate), written through a temporary file and a
// rename so a reader sees the old model or the new one, never part of one, and served
// back to the page. Without one, the stage shows Wisp's built-in character.
//
// A VRM is untrusted input that the page parses: Validate checks its structure and
// refuses references outside the file, so loading it never makes the page fetch
// anything (docs/emotes.md, "Your own character (VRM)").
//
// It knows app/wire and internal/ only; it does not speak HTTP.
package avatar

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/atomicfile"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/regular"
)

// DefaultMaxBytes is the largest model Save accepts.
const DefaultMaxBytes = 64 << 20

// The URLs the stage loads a character from.
const (
	BuiltinURL = "/avatar/wisp.glb" // Wisp's own character
	UserPath   = "/avatar/user.vrm" // the user's, with ?v=<the first 8 hex digits of its SHA-256>
)

// The files in the folder.
const (
	modelFile   = "user.vrm"
	metaFile    = "user.json"
	uploadGlob  = ".upload-*"
	nameMaxRune = 100
)

// Builtin is the built-in character as wire.Avatar.
var Builtin = wire.Avatar{Kind: wire.AvatarBuiltin, URL: BuiltinURL}

// meta is what user.json records of the stored model.
type meta struct {
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	VRMVersion string `json:"vrmVersion"`
}

// Store holds the user's character.
type Store struct {
	dir   string
	log   *slog.Logger
	limit int64

	mu  sync.Mutex // held while the stored model changes, and to read it with its ETag
	cur *meta      // nil: the built-in character
}

// New opens the store on dir (made when the first model is saved) and reads what it
// holds. Leftovers of uploads that died are removed; a model whose record is missing
// or does not match it is ignored (the built-in character shows).
func New(dir string, log *slog.Logger) *Store {
	if log == nil {
		log = slog.Default()
	}
	s := &Store{dir: dir, log: log, limit: DefaultMaxBytes}
	if old, _ := filepath.Glob(filepath.Join(dir, uploadGlob)); len(old) > 0 {
		for _, f := range old {
			os.Remove(f)
		}
	}
	s.cur = s.load()
	return s
}

func (s *Store) load() *meta {
	data, err := regular.ReadFile(filepath.Join(s.dir, metaFile), 1<<16, regular.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var m meta
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err == nil {
		var st fs.FileInfo
		if st, err = os.Lstat(filepath.Join(s.dir, modelFile)); err == nil && (!st.Mode().IsRegular() || st.Size() != m.Size || len(m.SHA256) != 64) {
			err = errors.New("the model does not match its record")
		}
	}
	if err != nil {
		s.log.Warn("user avatar ignored: the built-in one shows", "dir", s.dir, "err", err)
		return nil
	}
	return &m
}

// Limit is the largest model Save accepts, in bytes.
func (s *Store) Limit() int64 { return s.limit }

// Current is the character the stage shows.
func (s *Store) Current() wire.Avatar {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.currentLocked()
}

func (s *Store) currentLocked() wire.Avatar {
	if s.cur == nil {
		return Builtin
	}
	return wire.Avatar{Kind: wire.AvatarVRM, URL: UserPath + "?v=" + s.cur.SHA256[:8], Name: s.cur.Name,
		Size: s.cur.Size, VRMVersion: s.cur.VRMVersion}
}

// Save stores body as the user's character, named name (a file name; the model's own
// name when empty). It is refused, and the previous character kept, when it is larger
// than Limit (fault.TooLarge), when it is not a VRM model Validate accepts
// (fault.Invalid, "not a VRM model: ..."), or when the body ends in an error (an
// upload cut short).
func (s *Store) Save(ctx context.Context, name string, body io.Reader) (wire.Avatar, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return wire.Avatar{}, fmt.Errorf("create the avatar folder: %w", err)
	}
	tmp, err := os.CreateTemp(s.dir, uploadGlob)
	if err != nil {
		return wire.Avatar{}, fmt.Errorf("store the model: %w", err)
	}
	stored := false
	defer func() {
		tmp.Close()
		if !stored {
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(body, s.limit+1))
	switch {
	case err != nil:
		return wire.Avatar{}, fault.Invalid.Errorf("the upload did not arrive whole: %w", err)
	case ctx.Err() != nil:
		return wire.Avatar{}, ctx.Err()
	case n > s.limit:
		return wire.Avatar{}, fault.TooLarge.Errorf("the model is larger than %s, the limit for a VRM model", regular.Size(s.limit))
	}
	info, err := Validate(tmp, n)
	var bad *invalid
	if errors.As(err, &bad) {
		return wire.Avatar{}, fault.Invalid.Errorf("%s", bad.Error())
	}
	if err != nil {
		return wire.Avatar{}, err
	}
	if err := tmp.Sync(); err != nil {
		return wire.Avatar{}, fmt.Errorf("store the model: %w", err)
	}
	m := &meta{Name: displayName(name, info.Name), Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), VRMVersion: info.Version}
	record, _ := json.Marshal(m)

	s.mu.Lock()
	defer s.mu.Unlock()
	// The record goes first: until the rename, it does not match the old model's size
	// and hash, and a crash in between leaves the built-in character, not a wrong record.
	if err := atomicfile.Write(filepath.Join(s.dir, metaFile), record, 0o600); err != nil {
		return wire.Avatar{}, fmt.Errorf("store the model's record: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.dir, modelFile)); err != nil {
		s.cur = s.load()
		return wire.Avatar{}, fmt.Errorf("store the model: %w", err)
	}
	stored = true
	s.cur = m
	s.log.Info("user avatar stored", "name", m.Name, "size", m.Size, "vrm", m.VRMVersion)
	return s.currentLocked(), nil
}

// displayName is a plain, printable file name for the model, at most nameMaxRune runes.
func displayName(name, modelName string) string {
	clean := func(s string) string {
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) || r == '/' || r == '\\' {
				return -1
			}
			return r
		}, s)
		if r := []rune(strings.TrimSpace(s)); len(r) > nameMaxRune {
			return string(r[:nameMaxRune])
		}
		return strings.TrimSpace(s)
	}
	if n := clean(filepath.Base(filepath.ToSlash(name))); n != "" && n != "." {
		return n
	}
	if n := clean(modelName); n != "" {
		return n
	}
	return "avatar.vrm"
}

// Remove forgets the user's character: the built-in one shows again.
func (s *Store) Remove() (wire.Avatar, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range []string{metaFile, modelFile} {
		if err := os.Remove(filepath.Join(s.dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return s.currentLocked(), fmt.Errorf("remove the model: %w", err)
		}
	}
	s.cur = nil
	s.log.Info("user avatar removed")
	return Builtin, nil
}

// File is the stored model, open for serving.
type File struct {
	*os.File
	ETag    string // strong, from the SHA-256
	ModTime time.Time
}

// Open opens the stored model; fault.NotFound without one.
func (s *Store) Open() (*File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return nil, fault.NotFound.Errorf("no VRM character is set")
	}
	f, err := regular.Open(filepath.Join(s.dir, modelFile), os.O_RDONLY, 0, regular.NoFollow)
	if err != nil {
		return nil, fmt.Errorf("open the model: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{File: f, ETag: `"` + s.cur.SHA256 + `"`, ModTime: st.ModTime()}, nil
}
