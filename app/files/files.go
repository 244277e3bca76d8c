// Package files is the agent's hands on the user's files (docs/files.md): LIST_FILES,
// READ_FILE and SEARCH_FILES (kind file_read) and EDIT_FILE and WRITE_FILE (kind
// file_edit, the card showing the unified diff the change makes), each an
// approval.Guard action confined to the folders of files.roots, read live. Every
// path is opened through an os.Root of its folder, so no link or "..", even one
// swapped in during the call, leads out of it; Wisp's state folder and config file
// are refused even under a root. Writes are atomic, refused when the file changed
// since the model read it, and kept for an undo (Undo, POST /api/edits/{id}/undo).
// It must not import chat.
package files

import (
	"log/slog"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// The action names.
const (
	ListName   = "LIST_FILES"
	ReadName   = "READ_FILE"
	SearchName = "SEARCH_FILES"
	EditName   = "EDIT_FILE"
	WriteName  = "WRITE_FILE"
)

// Limits of what is read, searched, written and kept.
const (
	// MaxReadBytes is the most READ_FILE returns at once; MaxReadLines its lines.
	MaxReadBytes = 256 << 10
	MaxReadLines = 2000
	// MaxScanBytes is how far into a file READ_FILE pages (offset/limit) reach.
	MaxScanBytes = 8 << 20
	// MaxEditBytes bounds a file an edit or a write changes, before and after.
	MaxEditBytes = 1 << 20
	// MaxDiffBytes bounds the diff a card shows.
	MaxDiffBytes = 1 << 20
	// MaxListEntries and MaxListDepth bound LIST_FILES.
	MaxListEntries = 500
	MaxListDepth   = 4
	// Search bounds: files looked at, bytes read per file, results, depth, time.
	MaxSearchFiles     = 20000
	MaxSearchFileBytes = 1 << 20
	MaxSearchResults   = 100
	MaxSearchDepth     = 24
	SearchTime         = 10 * time.Second
	// DefaultUndoBytes is the largest previous content an edit keeps for its undo.
	DefaultUndoBytes = 5 << 20
	maxReasonRunes   = 300
	maxArgsBytes     = 3*MaxEditBytes + 4096
)

// Options are what the actions need.
type Options struct {
	Store     *store.Store
	Approvals *approval.Service
	// Roots are the folders of files.roots now (absolute, cleaned).
	Roots func() []string
	// Deny are the paths never read nor written, even under a root: Wisp's state
	// folder and its config file.
	Deny func() []string
	// Home is shown as ~ in what the user reads ("" shows paths whole).
	Home   string
	Now    func() time.Time
	Logger *slog.Logger
	// MaxUndoBytes is the largest previous content kept for an undo (default
	// DefaultUndoBytes); a larger one is not kept, and the card says so.
	MaxUndoBytes int
}

// Service owns the file actions and the edits' undo.
type Service struct {
	o  Options
	mu sync.Mutex // one write at a time: an edit, an undo
}

// New builds the file actions' service.
func New(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Deny == nil {
		o.Deny = func() []string { return nil }
	}
	if o.MaxUndoBytes <= 0 {
		o.MaxUndoBytes = DefaultUndoBytes
	}
	return &Service{o: o}
}

// Actions are the five file actions, offered while files.roots names a folder.
func (s *Service) Actions() []runtime.Action {
	acts := []runtime.Action{s.listAction(), s.readAction(), s.searchAction(), s.editAction(), s.writeAction()}
	for i := range acts {
		acts[i].Available = func() bool { return len(s.o.Roots()) > 0 }
	}
	return acts
}
