// Package memory is what the agent remembers about the user: one Markdown document
// per character that the user owns (docs/memory.md). Every change is a version (the
// newest KeepVersions are kept, with undo); the document goes into the system prompt
// of every model call (Prompt, the runtime's Options.Memory); the agent proposes
// additions with REMEMBER, a guarded action the user saves, edits or discards; and
// RECALL searches every conversation for the agent, with citations.
//
// It reads and writes through app/store and asks through app/approval; it imports
// nothing of HTTP, the hub or chat.
package memory

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// KeepVersions is how many versions of a memory are kept.
const KeepVersions = 100

// ErrTooLarge is (wrapped in a fault.Invalid) a memory over its size limit.
var ErrTooLarge = errors.New("the memory is over its size limit")

// Settings are what the service follows, read at each use.
type Settings struct {
	// Character names whose memory it is: the config's character name.
	Character string
	// MaxBytes bounds the memory's text (config memory.maxBytes).
	MaxBytes int
	// AutoSave saves REMEMBER proposals without asking (config memory.autoSave).
	AutoSave bool
}

// Options are what the service needs.
type Options struct {
	Store    *store.Store
	Events   wire.Events
	Settings func() Settings
	Now      func() time.Time
	Logger   *slog.Logger
}

// Service keeps the memories.
type Service struct {
	opts Options
	mu   sync.Mutex
	// prompt caches the newest text of each character's memory, for Prompt.
	prompt map[string]string
}

// New builds the service.
func New(opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Settings == nil {
		opts.Settings = func() Settings { return Settings{} }
	}
	return &Service{opts: opts, prompt: map[string]string{}}
}

// settings are the settings now, the character named and the bound within limits.
func (s *Service) settings() Settings {
	set := s.opts.Settings()
	set.Character = CharacterKey(set.Character)
	if set.MaxBytes <= 0 {
		set.MaxBytes = config.DefaultMemoryBytes
	}
	set.MaxBytes = min(max(set.MaxBytes, config.MinMemoryBytes), config.MaxMemoryBytes)
	return set
}

// CharacterKey is the key of a character's memory: its name, trimmed ("Wisp" for
// none).
func CharacterKey(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return "Wisp"
	}
	return name
}

// Get returns the memory of the character now.
func (s *Service) Get(ctx context.Context) (wire.Memory, error) {
	set := s.settings()
	v, err := s.latest(ctx, set.Character)
	if err != nil {
		return wire.Memory{}, err
	}
	return toWire(v, set), nil
}

// latest is the newest version of a character's memory; version 0 when never written.
func (s *Service) latest(ctx context.Context, character string) (store.MemoryVersion, error) {
	v, err := s.opts.Store.LatestMemory(ctx, character)
	if errors.Is(err, store.ErrNotFound) {
		return store.MemoryVersion{Character: character}, nil
	}
	return v, err
}

// Put replaces the memory's text by the user's. With base set, the memory must still
// be at that version (fault.Conflict otherwise: someone changed it since). The same
// text as now changes nothing.
func (s *Service) Put(ctx context.Context, text string, base *int) (wire.Memory, error) {
	set := s.settings()
	text, err := checkDocument(text, set.MaxBytes)
	if err != nil {
		return wire.Memory{}, err
	}
	cur, err := s.latest(ctx, set.Character)
	if err != nil {
		return wire.Memory{}, err
	}
	if base != nil && *base != cur.Version {
		return wire.Memory{}, stale(*base, cur.Version)
	}
	if text == cur.Text {
		return toWire(cur, set), nil // nothing changes
	}
	at := cur.Version
	if base == nil {
		at = -1 // the user's text wins over whatever came in between
	}
	return s.save(ctx, set, store.MemoryVersion{Character: set.Character, Text: text, Source: store.MemoryByUser}, at)
}

func stale(base, now int) error {
	return fault.Conflict.Errorf("the memory changed since version %d (it is at version %d now): reload it and try again", base, now)
}

// save adds a version based on base (-1: whatever the newest is) and tells everyone.
func (s *Service) save(ctx context.Context, set Settings, v store.MemoryVersion, base int) (wire.Memory, error) {
	v.CreatedAt = s.opts.Now()
	saved, err := s.opts.Store.AddMemory(ctx, v, base, KeepVersions)
	if errors.Is(err, store.ErrStale) {
		now, _ := s.latest(ctx, set.Character)
		return wire.Memory{}, stale(base, now.Version)
	}
	if err != nil {
		return wire.Memory{}, err
	}
	s.mu.Lock()
	s.prompt[saved.Character] = saved.Text
	s.mu.Unlock()
	out := toWire(saved, set)
	if s.opts.Events != nil {
		s.opts.Events.Publish(wire.NewMemoryUpdated(out))
	}
	return out, nil
}

// History lists the versions kept, newest first.
func (s *Service) History(ctx context.Context) (wire.MemoryHistory, error) {
	set := s.settings()
	rows, err := s.opts.Store.MemoryHistory(ctx, set.Character, KeepVersions)
	if err != nil {
		return wire.MemoryHistory{}, err
	}
	out := wire.MemoryHistory{Versions: make([]wire.MemoryVersion, len(rows))}
	for i, v := range rows {
		out.Versions[i] = wire.MemoryVersion{Version: v.Version, Text: v.Text, UpdatedAt: wire.ISOTime(v.CreatedAt), Source: v.Source}
	}
	return out, nil
}

// Undo brings the memory back to the text it had before its newest change, as a new
// version (source undo) that names the version it stands for. Undos walk back the
// way an editor's do: A, B, C, undo, undo gives A; an edit D then undone gives A
// again, and one more undo what came before A. Before the first version the memory
// was empty. fault.Conflict when there is nothing (kept) to go back to.
func (s *Service) Undo(ctx context.Context) (wire.Memory, error) {
	set := s.settings()
	for attempt := 0; ; attempt++ {
		cur, err := s.latest(ctx, set.Character)
		if err != nil {
			return wire.Memory{}, err
		}
		target := cur.Version - 1
		if cur.Source == store.MemoryByUndo && cur.Restores != nil {
			target = *cur.Restores - 1
		}
		if target < 0 {
			return wire.Memory{}, fault.Conflict.Errorf("there is nothing to undo")
		}
		var text string
		if target > 0 {
			old, err := s.opts.Store.MemoryAt(ctx, set.Character, target)
			if errors.Is(err, store.ErrNotFound) {
				return wire.Memory{}, fault.Conflict.Errorf("there is nothing to undo: version %d is no longer kept", target)
			}
			if err != nil {
				return wire.Memory{}, err
			}
			text = old.Text
			if old.Source == store.MemoryByUndo && old.Restores != nil {
				target = *old.Restores // that undo stood for the version it restored
			}
		}
		out, err := s.save(ctx, set, store.MemoryVersion{Character: set.Character, Text: text, Source: store.MemoryByUndo,
			Restores: &target}, cur.Version)
		if fault.Is(err, fault.Conflict) && attempt < 3 {
			continue // changed meanwhile: undo the change that is newest now
		}
		return out, err
	}
}

// errDuplicate is a note already in the memory.
var errDuplicate = errors.New("this is already in the memory")

// Append adds a note as a Markdown list item at the end of the memory (source
// agent). It fails with errDuplicate when a line of the memory says it already, and
// with ErrTooLarge when it does not fit.
func (s *Service) Append(ctx context.Context, note string) (wire.Memory, error) {
	set := s.settings()
	for attempt := 0; ; attempt++ {
		cur, err := s.latest(ctx, set.Character)
		if err != nil {
			return wire.Memory{}, err
		}
		text, err := appended(cur.Text, note, set.MaxBytes)
		if err != nil {
			return wire.Memory{}, err
		}
		out, err := s.save(ctx, set, store.MemoryVersion{Character: set.Character, Text: text, Source: store.MemoryByAgent}, cur.Version)
		if fault.Is(err, fault.Conflict) && attempt < 3 {
			continue
		}
		return out, err
	}
}

// appended is doc with note added as a list item ("- note", its further lines
// indented to stay in the item), or why it cannot be.
func appended(doc, note string, maxBytes int) (string, error) {
	if isDuplicate(doc, note) {
		return "", errDuplicate
	}
	item := "- " + strings.ReplaceAll(note, "\n", "\n  ")
	text := item
	if d := strings.TrimRight(doc, " \t\n"); d != "" {
		text = d + "\n" + item
	}
	if len(text) > maxBytes {
		return "", fault.Invalid.Errorf("the memory is full: this note would make it %d bytes, over the %d allowed; "+
			"the user can make room in Settings → Memory: %w", len(text), maxBytes, ErrTooLarge)
	}
	return text, nil
}

// isDuplicate says whether a line of doc says note already: the same words, whatever
// the case, spacing and list marker.
func isDuplicate(doc, note string) bool {
	want := normalLine(strings.ReplaceAll(note, "\n", " "))
	if want == "" {
		return false
	}
	for line := range strings.Lines(doc) {
		if normalLine(line) == want {
			return true
		}
	}
	return false
}

func normalLine(s string) string {
	s = strings.TrimSpace(s)
	for _, marker := range []string{"- ", "* ", "+ "} {
		s = strings.TrimPrefix(s, marker)
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// checkDocument checks a memory the user writes: valid UTF-8, no control characters
// but tabs and line ends, and within maxBytes.
func checkDocument(text string, maxBytes int) (string, error) {
	if !utf8.ValidString(text) {
		return "", fault.Invalid.Errorf("the text must be valid UTF-8")
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	for _, r := range text {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", fault.Invalid.Errorf("the text holds the control character %U", r)
		}
	}
	if len(text) > maxBytes {
		return "", fault.Invalid.Errorf("the memory is %d bytes, over the %d allowed (memory.maxBytes): %w", len(text), maxBytes, ErrTooLarge)
	}
	return text, nil
}

func toWire(v store.MemoryVersion, set Settings) wire.Memory {
	m := wire.Memory{Text: v.Text, Version: v.Version, MaxBytes: set.MaxBytes, Character: set.Character}
	if v.Version > 0 {
		m.UpdatedAt = wire.ISOTime(v.CreatedAt)
	}
	return m
}
