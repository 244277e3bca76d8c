package emotes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wispapp/wisp/internal/fswatch"
)

// ErrNotFound is returned by Open for a name that is not in the catalog.
var ErrNotFound = errors.New("no such emote file")

// Options configure a Catalog.
type Options struct {
	Dir      string // the user's emote folder (<state>/emotes); empty means built-ins only
	MaxFile  int64  // largest user GLB file; 0 means DefaultMaxFile
	Logger   *slog.Logger
	Debounce time.Duration // how long the watcher waits for a folder to settle; 0 means 150 ms
	// OnChange (optional) runs after a reload that changed the catalog.
	OnChange func()
}

// Catalog is the built-in emotes plus the user's packs. It is safe for concurrent use.
type Catalog struct {
	opts Options
	log  *slog.Logger

	mu   sync.RWMutex
	list []Emote
	byID map[string]Emote

	watch *fswatch.Watcher
}

// New returns a catalog with the user folder read once. Start follows its changes.
func New(o Options) *Catalog {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxFile <= 0 {
		o.MaxFile = DefaultMaxFile
	}
	if o.Debounce <= 0 {
		o.Debounce = 150 * time.Millisecond
	}
	if o.Dir != "" {
		o.Dir = filepath.Clean(o.Dir)
	}
	c := &Catalog{opts: o, log: o.Logger}
	c.Reload()
	return c
}

// List returns the catalog: built-in emotes in catalog order, then the user's by id.
func (c *Catalog) List() []Emote {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.list)
}

// Get returns one emote.
func (c *Catalog) Get(id string) (Emote, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.byID[id]
	return e, ok
}

// AgentIDs are the ids the agent may play: every emote except idle, run and walk.
func (c *Catalog) AgentIDs() []string {
	var ids []string
	for _, e := range c.List() {
		if ForAgent(e.ID) {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// Reload reads the user folder again and swaps in the new catalog. It reports whether
// the catalog changed.
func (c *Catalog) Reload() bool {
	user, skipped := []Emote(nil), []Skipped(nil)
	if c.opts.Dir != "" {
		user, skipped = loadUser(c.opts.Dir, c.opts.MaxFile, isBuiltin)
	}
	slices.SortFunc(user, func(a, b Emote) int { return strings.Compare(a.ID, b.ID) })
	for _, s := range skipped {
		c.log.Warn("user emote skipped", "entry", s.Entry, "reason", s.Reason, "folder", c.opts.Dir)
	}
	list := append(Builtin(), user...)
	byID := make(map[string]Emote, len(list))
	for _, e := range list {
		byID[e.ID] = e
	}
	c.mu.Lock()
	changed := !slices.Equal(list, c.list)
	c.list, c.byID = list, byID
	c.mu.Unlock()
	if changed && c.opts.Dir != "" {
		c.log.Info("emote catalog loaded", "builtin", len(builtin), "user", len(user), "skipped", len(skipped))
	}
	return changed
}

func isBuiltin(id string) bool {
	if id == "avatar" {
		return true // reserved: /emotes/avatar.glb would be ambiguous
	}
	return builtinByID[id]
}

// Asset is a GLB file ready to serve.
type Asset struct {
	io.ReadSeekCloser
	Name    string
	Size    int64
	ModTime time.Time // zero for embedded files
	ETag    string    // a strong validator, quoted
	Builtin bool      // embedded: changes only with a new Wisp build
}

// Open opens the clip of the emote with that id. User files are opened afresh, without
// following links, and checked again, so a file swapped after the catalog was read is
// never served blindly.
func (c *Catalog) Open(id string) (*Asset, error) {
	e, ok := c.Get(id)
	if !ok {
		return nil, ErrNotFound
	}
	if e.Source == SourceBuiltin {
		return openEmbedded(id + ".glb")
	}
	path := filepath.Join(c.opts.Dir, e.file)
	f, err := openRegular(path, c.opts.MaxFile)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	st, _ := f.Stat()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != "glTF" {
		f.Close()
		return nil, fmt.Errorf("%w: %s is no longer a GLB file", ErrNotFound, e.file)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	tag := fmt.Sprintf(`"u-%x-%x"`, st.Size(), st.ModTime().UnixNano())
	return &Asset{ReadSeekCloser: f, Name: e.file, Size: st.Size(), ModTime: st.ModTime(), ETag: tag}, nil
}

// OpenAvatar opens the avatar model.
func OpenAvatar() (*Asset, error) { return openEmbedded(AvatarFile) }

var (
	builtinByID = map[string]bool{}
	etags       sync.Map // embedded file name → ETag
)

func init() {
	for _, e := range builtin {
		builtinByID[e.ID] = true
	}
}

func openEmbedded(name string) (*Asset, error) {
	data, err := glbFS.ReadFile("glb/" + name)
	if err != nil {
		return nil, ErrNotFound
	}
	tag, ok := etags.Load(name)
	if !ok {
		sum := sha256.Sum256(data)
		tag = `"` + hex.EncodeToString(sum[:12]) + `"`
		etags.Store(name, tag)
	}
	return &Asset{ReadSeekCloser: nopCloser{bytes.NewReader(data)}, Name: name, Size: int64(len(data)),
		ETag: tag.(string), Builtin: true}, nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }
