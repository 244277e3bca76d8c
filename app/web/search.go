package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/runtime"
)

// Bounds of a search.
const (
	MaxResults     = 8
	maxSearchBody  = 2 << 20
	maxSnippetRune = 500
)

// Result is one search result.
type Result struct {
	Title, URL, Snippet string
}

type searchArgs struct {
	Query string `json:"query"`
}

// SearchAction is WEB_SEARCH {query}: offered only while a provider is set; the
// query goes to a third party, so the user allows that backend's site like a page.
func (s *Service) SearchAction(approvals *approval.Service) runtime.Action {
	act := approval.Guard(approvals, approval.Guarded[searchArgs]{Action: runtime.Action{
		Name: SearchName,
		Description: "Search the web and get the top results: title, URL and a snippet each. The query is sent to the " +
			"user's search service (the user is asked first unless they allowed it for good). Read a result with FETCH_URL.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"query":{"type":"string","description":"What to search for, as you would type it in a search box"}},` +
			`"required":["query"]}`),
	}, Check: s.checkSearch, Run: s.runSearch})
	act.Available = func() bool { return s.o.Settings().Search.Provider != "" }
	return act
}

// checkSearch reads a query and says where it goes.
func (s *Service) checkSearch(_ context.Context, call runtime.Call) (searchArgs, approval.Request, error) {
	var a searchArgs
	if len(call.Args) > maxArgsBytes {
		return a, approval.Request{}, fmt.Errorf("the arguments are longer than %d bytes", maxArgsBytes)
	}
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return a, approval.Request{}, errors.New("the arguments must be {query}")
	}
	a.Query = strings.Join(strings.Fields(a.Query), " ")
	switch {
	case a.Query == "":
		return a, approval.Request{}, errors.New("query is required")
	case utf8.RuneCountInString(a.Query) > MaxQueryRunes:
		return a, approval.Request{}, fmt.Errorf("the query is longer than %d characters", MaxQueryRunes)
	}
	u, err := s.searchURL(s.o.Settings().Search, a.Query)
	if err != nil {
		return a, approval.Request{}, err
	}
	return a, approval.Request{Detail: approval.Page{URL: u.String(), Reason: "Search the web for: " + a.Query},
		Bases: []string{Site(u.Hostname())}}, nil
}

// searchURL is where a query goes: GET {base}/search?q=…&format=json for SearXNG,
// GET {base}/res/v1/web/search?q=… for Brave. The key never is in it.
func (s *Service) searchURL(set Search, query string) (*url.URL, error) {
	base := strings.TrimRight(set.BaseURL, "/")
	var u *url.URL
	var err error
	q := url.Values{"q": {query}}
	switch set.Provider {
	case SearXNG:
		u, err = url.Parse(base + "/search")
		q.Set("format", "json")
	case Brave:
		if base == "" {
			base = BraveURL
		}
		u, err = url.Parse(base + "/res/v1/web/search")
		q.Set("count", fmt.Sprint(MaxResults))
	case "":
		return nil, errors.New("web search is off: the user can choose a search service in Settings")
	default:
		return nil, fmt.Errorf("unknown search provider %q", set.Provider)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the search server %q is not an http(s) URL", clip(base, 200))
	}
	u.RawQuery = q.Encode()
	return u, nil
}

// runSearch asks the backend and gives the model its top results as untrusted data.
func (s *Service) runSearch(ctx context.Context, call runtime.Call, a searchArgs) (string, error) {
	set := s.o.Settings().Search
	results, err := s.Search(ctx, set, a.Query)
	if err != nil {
		call.Callback("The search failed", runtime.MergeReplace)
		return "", err
	}
	call.Callback(fmt.Sprintf("Found %d results for %q", len(results), a.Query), runtime.MergeReplace)
	var b strings.Builder
	if len(results) == 0 {
		b.WriteString("No results.")
	}
	for i, r := range results {
		fmt.Fprintf(&b, "%d. %s\n   %s\n", i+1, oneLine(r.Title), r.URL)
		if r.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", r.Snippet)
		}
	}
	return Untrusted("web-search", "Search results for: "+a.Query+" ("+set.Provider+")", "", b.String()), nil
}

// Search asks the backend set for query: at most MaxResults results.
func (s *Service) Search(ctx context.Context, set Search, query string) ([]Result, error) {
	u, err := s.searchURL(set, query)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.lim.Timeout, errTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", s.userAgent())
	req.Header.Set("Accept", "application/json")
	if set.Provider == Brave {
		req.Header.Set("X-Subscription-Token", set.APIKey)
	}
	// The backend is the user's choice: its host is reached wherever it is (a
	// SearXNG on this machine), but never Wisp's own port, and no redirect is
	// followed (the key goes only where the settings say).
	backend := u.Hostname()
	allowed := allowSet(append(s.o.Settings().AllowHosts, backend))
	resp, err := s.client(allowed, false).Do(req)
	if err != nil {
		if context.Cause(ctx) == errTimeout {
			return nil, fmt.Errorf("the search service did not answer within %v", s.lim.Timeout)
		}
		return nil, plainError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchBody+1))
	if err != nil {
		return nil, plainError(err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the search service answered %s: %s", resp.Status, oneLine(clip(string(body), 300)))
	}
	if len(body) > maxSearchBody {
		return nil, fmt.Errorf("the search service's answer is larger than %s", mib(maxSearchBody))
	}
	return parseResults(set.Provider, body)
}

// parseResults reads a backend's JSON answer.
func parseResults(provider string, body []byte) ([]Result, error) {
	type item struct {
		Title       string `json:"title"`
		URL         string `json:"url"`
		Content     string `json:"content"`
		Description string `json:"description"`
	}
	var items []item
	switch provider {
	case SearXNG:
		var v struct {
			Results []item `json:"results"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, fmt.Errorf("the search service's answer is not SearXNG's JSON (is format=json enabled in its settings.yml?): %v", err)
		}
		items = v.Results
	case Brave:
		var v struct {
			Web struct {
				Results []item `json:"results"`
			} `json:"web"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, fmt.Errorf("the search service's answer is not Brave's JSON: %v", err)
		}
		items = v.Web.Results
	}
	var out []Result
	for _, it := range items {
		u, err := CheckURL(it.URL) // only what FETCH_URL could read
		if err != nil {
			continue
		}
		snippet := it.Content
		if snippet == "" {
			snippet = it.Description
		}
		out = append(out, Result{Title: oneLine(plainText(it.Title)), URL: clip(u.String(), 1000),
			Snippet: shorten(oneLine(plainText(snippet)), maxSnippetRune)})
		if len(out) == MaxResults {
			break
		}
	}
	return out, nil
}

// plainText is s without HTML tags (Brave marks matches with <strong>) and with
// entities decoded.
func plainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		}
	}
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
