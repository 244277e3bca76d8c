package files

import (
	"bytes"
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

type searchArgs struct {
	Query   string `json:"query"`
	Path    string `json:"path"`
	Content bool   `json:"content"`
	Reason  string `json:"reason"`
	at      place
}

func (s *Service) searchAction() runtime.Action {
	return approval.Guard(s.o.Approvals, approval.Guarded[searchArgs]{Action: runtime.Action{
		Name: SearchName,
		Description: "Search a folder the user opened to you (files.roots), its sub-folders included: by file name " +
			"(content false: a glob like *.go, or part of the name) or by content (content true: the lines containing " +
			fmt.Sprintf("the query, case-insensitive). At most %d results; links are not followed, binary files and .git skipped. ", MaxSearchResults) +
			"The user is asked the first time you read in a folder, unless they allowed it for good.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"query":{"type":"string","description":"A name glob or part of a name; with content, the text to find"},` +
			`"path":{"type":"string","description":"The folder to search (default: the open folder, when there is one)"},` +
			`"content":{"type":"boolean","description":"Search inside the files (default false: by name)"},` +
			`"reason":{"type":"string","description":"One line telling the user why"}},` +
			`"required":["query","reason"]}`),
	}, Check: s.checkSearch, Run: s.search})
}

func (s *Service) checkSearch(_ context.Context, call runtime.Call) (searchArgs, approval.Request, error) {
	var a searchArgs
	if err := decodeArgs(call.Args, &a, "{query, path?, content?, reason}"); err != nil {
		return a, approval.Request{}, err
	}
	a.Reason = shortReason(a.Reason)
	switch {
	case strings.TrimSpace(a.Query) == "":
		return a, approval.Request{}, errors.New("query is required")
	case len(a.Query) > 1024 || strings.ContainsRune(a.Query, 0) || !utf8.ValidString(a.Query):
		return a, approval.Request{}, errors.New("query must be text of at most 1024 bytes")
	}
	if !a.Content {
		if _, err := path.Match(a.Query, ""); err != nil {
			return a, approval.Request{}, fmt.Errorf("query %q is not a valid glob: %v", a.Query, err)
		}
	}
	at, err := s.locate(a.Path)
	if err != nil {
		return a, approval.Request{}, err
	}
	a.at = at
	if err := s.openable(at, "dir"); err != nil {
		return a, approval.Request{}, err
	}
	return a, readRequest(at, a.Reason), nil
}

func (s *Service) search(ctx context.Context, call runtime.Call, a searchArgs) (string, error) {
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
	ctx, cancel := context.WithTimeout(ctx, SearchTime)
	defer cancel()
	sr := &searcher{ctx: ctx, root: root, deny: s.denied(), q: a.Query, content: a.Content,
		lower: []byte(strings.ToLower(a.Query))}
	sr.walk(a.at.rel, 0)
	shown := s.show(a.at.abs())
	note := fmt.Sprintf("%d results for %q in %s (%d files looked at)", len(sr.results), a.Query, shown, sr.files)
	switch {
	case sr.stopped != "":
		note += "; the search stopped early: " + sr.stopped
	case len(sr.results) == 0:
		note += "; nothing found"
	}
	call.Callback(fmt.Sprintf("Searched %s: %d results", shown, len(sr.results)), runtime.MergeReplace)
	return untrusted(shown, note+". Paths are relative to "+shown+".", strings.Join(sr.results, "\n")), nil
}

// searcher walks a folder through the root, bounded in files, bytes, results,
// depth and time.
type searcher struct {
	ctx     context.Context
	root    *os.Root
	deny    denial
	q       string
	lower   []byte
	content bool
	base    string
	results []string
	files   int
	stopped string
	buf     []byte
}

// skipped are folders never searched.
var skipped = map[string]bool{".git": true, ".hg": true, ".svn": true}

func (sr *searcher) walk(rel string, depth int) {
	if sr.stopped != "" {
		return
	}
	if depth > MaxSearchDepth {
		return
	}
	if sr.base == "" {
		sr.base = rel
	}
	entries, err := readDir(sr.root, rel, sr.deny)
	if err != nil {
		return
	}
	for _, e := range entries {
		if sr.halt() {
			return
		}
		child := path.Join(rel, e.Name())
		info, err := e.Info()
		if err != nil || sr.deny.deniedInfo(info) {
			continue
		}
		if info.IsDir() {
			if !skipped[e.Name()] {
				sr.walk(child, depth+1)
			}
			continue
		}
		if !info.Mode().IsRegular() {
			continue
		}
		sr.files++
		shown := printable(strings.TrimPrefix(strings.TrimPrefix(child, sr.base), "/"))
		if sr.base == "." {
			shown = printable(child)
		}
		if !sr.content {
			if sr.nameMatches(e.Name()) {
				sr.results = append(sr.results, shown)
			}
			continue
		}
		sr.grep(child, shown)
	}
}

// halt says whether a bound stopped the search.
func (sr *searcher) halt() bool {
	switch {
	case sr.stopped != "":
	case sr.ctx.Err() != nil:
		sr.stopped = fmt.Sprintf("it took over %s", SearchTime)
	case len(sr.results) >= MaxSearchResults:
		sr.stopped = fmt.Sprintf("%d results", MaxSearchResults)
	case sr.files >= MaxSearchFiles:
		sr.stopped = fmt.Sprintf("%d files looked at", MaxSearchFiles)
	default:
		return false
	}
	return true
}

func (sr *searcher) nameMatches(name string) bool {
	if strings.ContainsAny(sr.q, "*?[") {
		ok, _ := path.Match(sr.q, name)
		return ok
	}
	return strings.Contains(strings.ToLower(name), strings.ToLower(sr.q))
}

// grep adds the lines of a file that contain the query (case-insensitive), reading
// at most MaxSearchFileBytes of it; binary files are skipped.
func (sr *searcher) grep(rel, shown string) {
	f, err := sr.root.OpenFile(rel, openFlags, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || sr.deny.check(f, rel) != nil {
		return
	}
	if sr.buf == nil {
		sr.buf = make([]byte, MaxSearchFileBytes)
	}
	n, _ := io.ReadFull(f, sr.buf)
	data := sr.buf[:n]
	if isBinary(data[:min(n, sniffBytes)], n < MaxSearchFileBytes && n <= sniffBytes) {
		return
	}
	for no := 1; len(data) > 0; no++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !bytes.Contains(bytes.ToLower(line), sr.lower) {
			continue
		}
		text := strings.TrimSpace(string(line))
		if len(text) > 200 {
			text = strings.ToValidUTF8(text[:200], "") + "…"
		}
		sr.results = append(sr.results, fmt.Sprintf("%s:%d: %s", shown, no, text))
		if len(sr.results) >= MaxSearchResults {
			return
		}
	}
}
