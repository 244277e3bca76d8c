package files

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/runtime"
)

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
