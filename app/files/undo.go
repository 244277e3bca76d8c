package files

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Edits are the edits a call made (none or one), for the chat's "Undo this edit".
func (s *Service) Edits(ctx context.Context, callID string) ([]wire.FileEdit, error) {
	if callID == "" {
		return nil, fault.Invalid.Errorf("callId is required")
	}
	edits, err := s.o.Store.FileEditsOfCall(ctx, callID)
	if err != nil {
		return nil, err
	}
	out := make([]wire.FileEdit, len(edits))
	for i, e := range edits {
		out[i] = toWire(e)
	}
	return out, nil
}

// Undo puts a file back as it was before an edit: its previous content, written
// atomically with its mode, or, for a file the edit created, no file. It is refused
// (fault.Conflict) when the file changed since the edit (it would lose that change),
// when its folder is no longer in files.roots, when the edit kept no previous
// content, and when it was undone already.
func (s *Service) Undo(ctx context.Context, id string) (wire.FileEdit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.o.Store.FileEditByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return wire.FileEdit{}, fault.NotFound.Errorf("no edit %s", id)
	}
	if err != nil {
		return wire.FileEdit{}, err
	}
	shown := s.show(e.Path)
	switch {
	case !e.UndoneAt.IsZero():
		return wire.FileEdit{}, fault.Conflict.Errorf("this edit of %s is already undone", shown)
	case e.Existed && e.Before == nil:
		return wire.FileEdit{}, fault.Conflict.Errorf("this edit of %s cannot be undone: the file was too large to keep what it was", shown)
	}
	at, err := s.locate(e.Path)
	if err != nil {
		return wire.FileEdit{}, fault.Conflict.Errorf("cannot undo: %v", err)
	}
	err = s.inFolder(at, func(dir *os.Root, name string) error {
		now, _, exists, err := s.readTarget(dir, at, name)
		if err != nil {
			return err
		}
		if !exists || hashOf(now) != e.AfterSHA256 {
			return errChangedSince
		}
		if !e.Existed {
			return dir.Remove(name)
		}
		return writeAtomic(dir, name, e.Before, e.BeforeMode)
	})
	if errors.Is(err, errChangedSince) {
		return wire.FileEdit{}, fault.Conflict.Errorf("%s changed since this edit: undoing it would lose those changes", shown)
	}
	if err != nil {
		return wire.FileEdit{}, fault.Conflict.Errorf("cannot undo: %v", err)
	}
	e, err = s.o.Store.MarkFileEditUndone(context.WithoutCancel(ctx), id, s.o.Now())
	if err != nil {
		return wire.FileEdit{}, fmt.Errorf("mark the edit undone: %w", err)
	}
	return toWire(e), nil
}

var errChangedSince = errors.New("changed since the edit")

func toWire(e store.FileEdit) wire.FileEdit {
	w := wire.FileEdit{ID: e.ID, RunID: e.RunID, CallID: e.CallID, ConversationID: e.ConversationID, Path: e.Path,
		Created: !e.Existed, Undoable: !e.Existed || e.Before != nil, CreatedAt: wire.ISOTime(e.CreatedAt)}
	if !e.UndoneAt.IsZero() {
		t := wire.ISOTime(e.UndoneAt)
		w.UndoneAt = &t
	}
	return w
}
