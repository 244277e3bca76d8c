package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/ids"
	"github.com/wispapp/wisp/runtime"
)

// change is an edit or a write as checked: the file before (its hash, "" when it
// does not exist) and the whole content after.
type change struct {
	at         place
	existed    bool
	before     string
	beforeSHA  string
	beforeMode fs.FileMode
	after      string
	diff       string
}

type editArgs struct {
	Path    string `json:"path"`
	OldText string `json:"oldText"`
	NewText string `json:"newText"`
	Text    string `json:"text"`
	Reason  string `json:"reason"`
	write   bool
	c       change
}

func (s *Service) editAction() runtime.Action {
	return approval.Guard(s.o.Approvals, approval.Guarded[editArgs]{Action: runtime.Action{
		Name: EditName,
		Description: "Change a text file in a folder the user opened to you (files.roots) by replacing oldText with " +
			"newText. Rules: read the file with READ_FILE first (an edit of a file you have not read, or that changed " +
			"since you read it, is refused: read it again); oldText must occur exactly once in the file, matching it " +
			"character for character, whitespace, indentation and line ends included; when it occurs more than once, " +
			"include more of the surrounding lines. The user sees the change as a diff and allows it or not; it can " +
			"be undone. For a new file or a whole rewrite use WRITE_FILE.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"The file: an absolute path inside an open folder, or relative to it when there is one"},` +
			`"oldText":{"type":"string","description":"The exact text to replace: it must occur exactly once"},` +
			`"newText":{"type":"string","description":"The text to put in its place"},` +
			`"reason":{"type":"string","description":"One line telling the user why"}},` +
			`"required":["path","oldText","newText","reason"]}`),
	}, Check: s.checkEdit, Run: s.apply})
}

func (s *Service) writeAction() runtime.Action {
	return approval.Guard(s.o.Approvals, approval.Guarded[editArgs]{Action: runtime.Action{
		Name: WriteName,
		Description: "Write a whole text file in a folder the user opened to you (files.roots): a new file, or a " +
			"rewrite of one you read with READ_FILE (a file you have not read, or that changed since, is refused). " +
			"The folder it goes in must exist. The user sees the change as a diff and allows it or not; it can be " +
			"undone. For a change to part of a file prefer EDIT_FILE.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"The file: an absolute path inside an open folder, or relative to it when there is one"},` +
			`"text":{"type":"string","description":"The file's whole new content"},` +
			`"reason":{"type":"string","description":"One line telling the user why"}},` +
			`"required":["path","text","reason"]}`),
	}, Check: s.checkWrite, Run: s.apply})
}

func (s *Service) checkEdit(ctx context.Context, call runtime.Call) (editArgs, approval.Request, error) {
	var a editArgs
	if err := decodeArgs(call.Args, &a, "{path, oldText, newText, reason}"); err != nil {
		return a, approval.Request{}, err
	}
	switch {
	case a.OldText == "":
		return a, approval.Request{}, errors.New("oldText is required: the exact text to replace (to write a whole file use WRITE_FILE)")
	case a.OldText == a.NewText:
		return a, approval.Request{}, errors.New("oldText and newText are the same: nothing would change")
	}
	c, err := s.current(ctx, call, a.Path)
	if err != nil {
		return a, approval.Request{}, err
	}
	shown := s.show(c.at.abs())
	if !c.existed {
		return a, approval.Request{}, fmt.Errorf("%s does not exist: create it with WRITE_FILE", shown)
	}
	switch n := strings.Count(c.before, a.OldText); n {
	case 1:
	case 0:
		return a, approval.Request{}, fmt.Errorf("oldText was not found in %s: it must match the file exactly, "+
			"whitespace, indentation and line ends included (read the file again if unsure)", shown)
	default:
		return a, approval.Request{}, fmt.Errorf("oldText occurs %d times in %s: include more of the surrounding lines "+
			"so that it occurs exactly once", n, shown)
	}
	c.after = strings.Replace(c.before, a.OldText, a.NewText, 1)
	return s.ask(a, c)
}

func (s *Service) checkWrite(ctx context.Context, call runtime.Call) (editArgs, approval.Request, error) {
	var a editArgs
	if err := decodeArgs(call.Args, &a, "{path, text, reason}"); err != nil {
		return a, approval.Request{}, err
	}
	a.write = true
	c, err := s.current(ctx, call, a.Path)
	if err != nil {
		return a, approval.Request{}, err
	}
	if c.existed && c.before == a.Text {
		return a, approval.Request{}, fmt.Errorf("%s already has this content: nothing would change", s.show(c.at.abs()))
	}
	c.after = a.Text
	return s.ask(a, c)
}

// ask finishes a check: the content after is text within bounds, and the card shows
// the diff from the file as it is now to it, exactly what is applied.
func (s *Service) ask(a editArgs, c change) (editArgs, approval.Request, error) {
	switch {
	case len(c.after) > MaxEditBytes:
		return a, approval.Request{}, fmt.Errorf("the file would be %d bytes, over the %d an edit may make", len(c.after), MaxEditBytes)
	case strings.ContainsRune(c.after, 0) || !utf8.ValidString(c.after):
		return a, approval.Request{}, errors.New("the new content must be text (UTF-8, no NUL bytes)")
	}
	diff, err := unified(c.at.rel, c.existed, c.before, c.after)
	if err != nil {
		return a, approval.Request{}, err
	}
	if len(c.before) > s.o.MaxUndoBytes {
		diff = fmt.Sprintf("# no undo: the file is over %d MiB, its previous content is not kept\n", s.o.MaxUndoBytes>>20) + diff
	}
	c.diff = diff
	a.c, a.Reason = c, shortReason(a.Reason)
	return a, approval.Request{Detail: approval.FileEdit{Path: c.at.abs(), Root: c.at.root, Diff: diff, Reason: a.Reason},
		Bases: []string{c.at.root}}, nil
}

// current reads the file an edit or a write would change, as it is now, and checks
// the model read it as it is (a new file needs no read).
func (s *Service) current(ctx context.Context, call runtime.Call, p string) (change, error) {
	at, err := s.locate(p)
	if err != nil {
		return change{}, err
	}
	if at.rel == "." {
		return change{}, fmt.Errorf("%s is a folder: name a file in it", s.show(at.abs()))
	}
	if call.ConversationID == "" {
		return change{}, errors.New("files are changed only in a conversation")
	}
	c := change{at: at}
	err = s.inFolder(at, func(dir *os.Root, name string) error {
		before, mode, existed, err := s.readTarget(dir, at, name)
		c.before, c.beforeMode, c.existed = before, mode, existed
		return err
	})
	if err != nil {
		return change{}, err
	}
	if !c.existed {
		return c, nil
	}
	c.beforeSHA = hashOf(c.before)
	shown := s.show(at.abs())
	read, err := s.o.Store.FileReadSHA(ctx, call.ConversationID, at.abs())
	if errors.Is(err, store.ErrNotFound) {
		return change{}, fmt.Errorf("you have not read %s in this conversation: read it with READ_FILE first", shown)
	}
	if err != nil {
		return change{}, err
	}
	if read != c.beforeSHA {
		return change{}, fmt.Errorf("%s changed since you last read it: read it again with READ_FILE, then make your change", shown)
	}
	return c, nil
}

// inFolder runs fn on the folder a place is in, opened through its root and checked
// not to be denied: fn then works by name in that folder, whatever is renamed or
// linked on the way to it meanwhile.
func (s *Service) inFolder(at place, fn func(dir *os.Root, name string) error) error {
	root, err := os.OpenRoot(at.root)
	if err != nil {
		return fmt.Errorf("cannot open the folder %s: %w", s.show(at.root), plain(err))
	}
	defer root.Close()
	dirRel, name := dirOf(at.rel)
	dir, err := root.OpenRoot(dirRel)
	if err != nil {
		return s.openError(place{root: at.root, rel: dirRel}, err)
	}
	defer dir.Close()
	d, err := dir.OpenFile(".", openFlags, 0)
	if err != nil {
		return s.openError(place{root: at.root, rel: dirRel}, err)
	}
	err = s.denied().check(d, s.show(at.abs()))
	d.Close()
	if err != nil {
		return err
	}
	return fn(dir, name)
}

// readTarget reads the file name of dir whole: a regular file within bounds, text,
// not denied; a link is refused, not followed (the write would replace the link).
func (s *Service) readTarget(dir *os.Root, at place, name string) (string, fs.FileMode, bool, error) {
	shown := s.show(at.abs())
	fi, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, s.openError(at, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", 0, false, fmt.Errorf("%s is a symbolic link: change the file it points to by its own path", shown)
	}
	f, err := dir.OpenFile(name, openFlags|syscallNoFollow, 0)
	if err != nil {
		return "", 0, false, s.openError(at, err)
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return "", 0, false, err
	}
	if err := s.denied().check(f, shown); err != nil {
		return "", 0, false, err
	}
	if err := s.kindCheck(at, fi, "file"); err != nil {
		return "", 0, false, err
	}
	if fi.Size() > MaxEditBytes {
		return "", 0, false, fmt.Errorf("%s is %d bytes, over the %d an edit may change", shown, fi.Size(), MaxEditBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxEditBytes+1))
	if err != nil {
		return "", 0, false, fmt.Errorf("read %s: %w", shown, plain(err))
	}
	if len(data) > MaxEditBytes {
		return "", 0, false, fmt.Errorf("%s is over the %d bytes an edit may change", shown, MaxEditBytes)
	}
	if isBinary(data, true) {
		return "", 0, false, fmt.Errorf("%s is a binary file: it is not changed", shown)
	}
	return string(data), fi.Mode().Perm(), true, nil
}

// apply makes the allowed change, if the file is still what the diff was made from,
// keeps what it was for an undo and tells the model.
func (s *Service) apply(ctx context.Context, call runtime.Call, a editArgs) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := a.c
	shown := s.show(c.at.abs())
	mode := c.beforeMode
	if !c.existed {
		mode = 0o644
	}
	err := s.inFolder(c.at, func(dir *os.Root, name string) error {
		before, _, existed, err := s.readTarget(dir, c.at, name)
		if err != nil {
			return err
		}
		if existed != c.existed || hashOf(before) != hashOf(c.before) {
			return fmt.Errorf("%s changed after you asked to change it: nothing was written; read it again", shown)
		}
		return writeAtomic(dir, name, []byte(c.after), mode)
	})
	if err != nil {
		return "", err
	}
	e := store.FileEdit{ID: "ed_" + strings.ReplaceAll(ids.New(), "-", ""), RunID: call.RunID, CallID: call.ID,
		ConversationID: call.ConversationID, Path: c.at.abs(), Existed: c.existed, BeforeMode: c.beforeMode,
		AfterSHA256: hashOf(c.after), CreatedAt: s.o.Now()}
	if c.existed && len(c.before) <= s.o.MaxUndoBytes {
		e.Before = []byte(c.before)
	}
	bg := context.WithoutCancel(ctx)
	if err := s.o.Store.AddFileEdit(bg, e); err != nil {
		s.o.Logger.Warn("save file edit", "path", e.Path, "err", err)
	}
	// The model knows what it wrote: its next edit of the file needs no new read.
	if err := s.o.Store.SetFileRead(bg, call.ConversationID, c.at.abs(), e.AfterSHA256, s.o.Now()); err != nil {
		s.o.Logger.Warn("record file read", "path", e.Path, "err", err)
	}
	verb := "Edited"
	if !c.existed {
		verb = "Created"
	} else if a.write {
		verb = "Wrote"
	}
	call.Callback(verb+" "+shown, runtime.MergeReplace)
	return fmt.Sprintf("%s %s (%d bytes). The user can undo this change from the chat.", verb, shown, len(c.after)), nil
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
