package files

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/internal/regular"
	"github.com/wispapp/wisp/runtime"
)

type listArgs struct {
	Path   string `json:"path"`
	Depth  int    `json:"depth"`
	Reason string `json:"reason"`
	at     place
	roots  bool // no path with several roots: the roots themselves, asked of nobody
}

func (s *Service) listAction() runtime.Action {
	return approval.Guard(s.o.Approvals, approval.Guarded[listArgs]{Action: runtime.Action{
		Name: ListName,
		Description: "List a folder the user opened to you (files.roots), or one inside it: names, sizes, sub-folders " +
			fmt.Sprintf("to depth levels (default 1, at most %d; at most %d entries). Without a path: the open folders. ", MaxListDepth, MaxListEntries) +
			"The user is asked the first time you read in a folder, unless they allowed it for good.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"The folder (default: the open folder, when there is one)"},` +
			`"depth":{"type":"integer","description":"How many levels down (default 1)"},` +
			`"reason":{"type":"string","description":"One line telling the user why"}},` +
			`"required":["reason"]}`),
	}, Check: s.checkList, Run: s.list})
}

func (s *Service) checkList(_ context.Context, call runtime.Call) (listArgs, approval.Request, error) {
	var a listArgs
	if err := decodeArgs(call.Args, &a, "{path?, depth?, reason}"); err != nil {
		return a, approval.Request{}, err
	}
	a.Reason = shortReason(a.Reason)
	if strings.TrimSpace(a.Path) == "" && len(s.o.Roots()) > 1 {
		a.roots = true
		return a, approval.Request{Detail: approval.FileRead{Reason: a.Reason}, Allowed: true}, nil
	}
	at, err := s.locate(a.Path)
	if err != nil {
		return a, approval.Request{}, err
	}
	a.at = at
	a.Depth = min(max(a.Depth, 1), MaxListDepth)
	if err := s.openable(at, "dir"); err != nil {
		return a, approval.Request{}, err
	}
	return a, readRequest(at, a.Reason), nil
}

func (s *Service) list(_ context.Context, call runtime.Call, a listArgs) (string, error) {
	if a.roots {
		var b strings.Builder
		b.WriteString("The folders open to you:\n")
		for _, r := range s.o.Roots() {
			b.WriteString(r + "/\n")
		}
		return b.String(), nil
	}
	f, _, err := s.open(a.at, "dir")
	if err != nil {
		return "", err
	}
	f.Close()
	root, err := os.OpenRoot(a.at.root)
	if err != nil {
		return "", fmt.Errorf("cannot open the folder %s: %w", s.show(a.at.root), plain(err))
	}
	defer root.Close()
	w := &lister{root: root, deny: s.denied(), max: MaxListEntries}
	w.walk(a.at.rel, "", a.Depth)
	shown := s.show(a.at.abs())
	note := fmt.Sprintf("%s: %d entries", shown, w.n)
	if w.full {
		note += fmt.Sprintf(" (cut at %d: list a sub-folder for more)", MaxListEntries)
	}
	call.Callback("Listed "+shown, runtime.MergeReplace)
	return untrusted(shown, note+". Folders end with /, links with @.", w.out.String()), nil
}

// lister walks a folder through the root, depth first, bounded in entries; links
// are named, never followed, and denied folders never entered.
type lister struct {
	root *os.Root
	deny denial
	out  strings.Builder
	n    int
	max  int
	full bool
}

func (w *lister) walk(rel, indent string, depth int) {
	entries, err := readDir(w.root, rel, w.deny)
	if err != nil {
		w.line(indent + "(" + err.Error() + ")")
		return
	}
	for _, e := range entries {
		if w.full {
			return
		}
		name := printable(e.Name())
		info, err := e.Info()
		if err != nil {
			continue
		}
		if w.deny.deniedInfo(info) {
			continue
		}
		switch {
		case info.IsDir():
			w.line(indent + name + "/")
			if depth > 1 {
				w.walk(path.Join(rel, e.Name()), indent+"  ", depth-1)
			}
		case info.Mode()&fs.ModeSymlink != 0:
			w.line(indent + name + "@")
		case info.Mode().IsRegular():
			w.line(indent + name + "  " + regular.Size(info.Size()))
		default:
			w.line(indent + name + "  (" + what(info.Mode()) + ")")
		}
	}
}

func (w *lister) line(s string) {
	if w.n >= w.max {
		w.full = true
		return
	}
	w.n++
	w.out.WriteString(s + "\n")
}

// maxDirEntries bounds the entries read of one folder.
const maxDirEntries = 5000

// readDir reads a folder's entries through the root, sorted by name, after checking
// the folder itself is not denied.
func readDir(root *os.Root, rel string, deny denial) ([]fs.DirEntry, error) {
	d, err := root.OpenFile(rel, openFlags, 0)
	if err != nil {
		return nil, errors.New("cannot be read")
	}
	defer d.Close()
	if err := deny.check(d, rel); err != nil {
		return nil, errors.New("Wisp's own folder, not shown")
	}
	entries, err := d.ReadDir(maxDirEntries)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, errors.New("cannot be read")
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// printable is a name with what is not printable text escaped.
func printable(name string) string {
	if utf8.ValidString(name) && !strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return name
	}
	q := fmt.Sprintf("%q", name)
	return q[1 : len(q)-1]
}
