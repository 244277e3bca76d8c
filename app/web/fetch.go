package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Page is what a fetch found, ready for the model.
type Page struct {
	URL      string // the final URL, after redirects within the site
	Title    string
	Type     string // the media type the server said (or the bytes showed)
	Markdown string // bounded: Limits.MaxMarkdown characters at most, with a note when cut
	Bytes    int64  // bytes read
}

// OffSiteError is a redirect to another site, not followed: the user allowed the
// first site, not that one.
type OffSiteError struct {
	From, To *url.URL
}

func (e *OffSiteError) Error() string {
	return fmt.Sprintf("%s redirects to %s, on another site (%s): it was not followed. To read it, fetch that URL (the user is asked about %s)",
		e.From, e.To, Site(e.To.Hostname()), Site(e.To.Hostname()))
}

// client is an HTTP client for one fetch: GET only, no proxy, no cookies, no
// credentials, redirects only within the first URL's site (at most MaxRedirects),
// every connection through the guard; allowed are the hosts reached although
// their addresses are not public.
func (s *Service) client(allowed func(string) bool, redirects bool) *http.Client {
	g := &guard{resolve: s.o.Resolver, dial: s.o.Dial, allowed: allowed, ownPort: s.o.OwnPort}
	tr := &http.Transport{
		Proxy:                  nil, // never the environment's: a proxy would connect for us, unchecked
		DialContext:            g.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    dialTimeout,
		ResponseHeaderTimeout:  s.lim.HeaderTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      true, // one fetch, one use: nothing idles, and a changed allowHosts holds at once
	}
	c := &http.Client{Transport: tr}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !redirects {
			return http.ErrUseLastResponse
		}
		if len(via) > s.lim.MaxRedirects {
			return fmt.Errorf("more than %d redirects", s.lim.MaxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("a redirect to %q, which is not http or https", clip(req.URL.String(), 200))
		}
		if req.URL.User != nil {
			return errors.New("a redirect to a URL with a user name or password")
		}
		if Site(req.URL.Hostname()) != Site(via[0].URL.Hostname()) {
			return &OffSiteError{From: via[0].URL, To: req.URL}
		}
		return nil
	}
	return c
}

// accept is what a fetch asks for: what it can read.
const accept = "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/pdf;q=0.8,application/json;q=0.8,*/*;q=0.1"

// Fetch reads the page at u (checked by CheckURL) within the limits.
func (s *Service) Fetch(ctx context.Context, u *url.URL) (*Page, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.lim.Timeout, errTimeout)
	defer cancel()
	page, err := s.fetch(ctx, u)
	if err != nil && context.Cause(ctx) == errTimeout {
		return nil, fmt.Errorf("%s did not arrive within %v", u, s.lim.Timeout)
	}
	return page, err
}

var errTimeout = errors.New("the fetch took too long")

func (s *Service) fetch(ctx context.Context, u *url.URL) (*Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", s.userAgent())
	req.Header.Set("Accept", accept)
	resp, err := s.client(allowSet(s.o.Settings().AllowHosts), true).Do(req)
	if err != nil {
		return nil, plainError(err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%s answered %s", final, resp.Status)
	}
	mediaType, params := mediaTypeOf(resp.Header.Get("Content-Type"))
	page := &Page{URL: final.String()}
	switch kind := kindOf(mediaType); kind {
	case "pdf":
		return s.readPDF(ctx, page, resp)
	case "":
		if mediaType == "" || mediaType == "application/octet-stream" {
			return s.sniffed(ctx, page, resp, final, params)
		}
		return nil, fmt.Errorf("FETCH_URL reads web pages, text and PDFs, not %s", mediaType)
	case "html":
		// Parsed as it arrives: the parse overlaps the download (render.go).
		page.Type = mediaType
		return page, s.renderHTML(page, resp, final)
	default:
		page.Type = mediaType
		body, cut, err := s.readBody(resp)
		if err != nil {
			return nil, err
		}
		page.Bytes = int64(len(body))
		return page, s.render(page, kind, body, cut, resp.Header.Get("Content-Type"), params, final)
	}
}

// sniffed reads a body the server did not type by its first bytes.
func (s *Service) sniffed(ctx context.Context, page *Page, resp *http.Response, final *url.URL, params map[string]string) (*Page, error) {
	body, cut, err := s.readBody(resp)
	if err != nil {
		return nil, err
	}
	mediaType, params2 := mediaTypeOf(http.DetectContentType(body))
	if params["charset"] == "" {
		params = params2
	}
	page.Type, page.Bytes = mediaType, int64(len(body))
	kind := kindOf(mediaType)
	switch kind {
	case "":
		return nil, fmt.Errorf("FETCH_URL reads web pages, text and PDFs, not %s", mediaType)
	case "pdf":
		if cut {
			return nil, fmt.Errorf("the PDF is larger than %s", mib(s.lim.MaxBody))
		}
		return s.pdfFrom(ctx, page, strings.NewReader(string(body)))
	}
	return page, s.render(page, kind, body, cut, mediaType, params, final)
}

// readBody reads at most MaxBody bytes of resp's body; cut says there was more.
func (s *Service) readBody(resp *http.Response) ([]byte, bool, error) {
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 { // one allocation when the server says the size
		buf.Grow(int(min(n, s.lim.MaxBody)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(io.LimitReader(resp.Body, s.lim.MaxBody+1))
	b := buf.Bytes()
	if err != nil {
		return nil, false, plainError(err)
	}
	if int64(len(b)) > s.lim.MaxBody {
		return b[:s.lim.MaxBody], true, nil
	}
	return b, false, nil
}

// bodyReader gives at most max bytes of a response body as they arrive, counting
// them: the same bound as readBody's for a reader that never holds the body whole.
// After the max-th byte it asks for one more, to know whether the body was cut.
type bodyReader struct {
	r    io.Reader
	left int64 // bytes it may still give
	n    int64 // bytes given
	cut  bool  // the body went on past max
	err  error // the first failure to read, other than the end
	done bool
}

func (s *Service) bodyReader(resp *http.Response) *bodyReader {
	return &bodyReader{r: resp.Body, left: s.lim.MaxBody}
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	if b.left <= 0 {
		b.done = true
		var one [1]byte
		n, err := io.ReadFull(b.r, one[:])
		switch {
		case n == 1:
			b.cut = true
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			b.err = err
			return 0, err
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	b.left -= int64(n)
	if err != nil {
		b.done = true
		if err != io.EOF {
			b.err = err
		}
	}
	return n, err
}

// kindOf is how a media type is read: html, text, json, xml, pdf, or "" (refused).
func kindOf(mediaType string) string {
	switch {
	case mediaType == "text/html" || mediaType == "application/xhtml+xml":
		return "html"
	case mediaType == "text/plain" || mediaType == "text/markdown" || mediaType == "text/x-markdown" || mediaType == "text/csv":
		return "text"
	case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
		return "json"
	case mediaType == "application/xml" || mediaType == "text/xml" || strings.HasSuffix(mediaType, "+xml"):
		return "xml"
	case mediaType == "application/pdf" || mediaType == "application/x-pdf":
		return "pdf"
	}
	return ""
}

func mediaTypeOf(header string) (string, map[string]string) {
	mt, params, err := mime.ParseMediaType(header)
	if err != nil {
		mt, _, _ = strings.Cut(header, ";")
		return strings.ToLower(strings.TrimSpace(mt)), map[string]string{}
	}
	return mt, params
}

// plainError says a transport's failure without Go's wrapping ("Get \"…\": …").
func plainError(err error) error {
	if r, ok := isRefused(err); ok {
		return r
	}
	var off *OffSiteError
	if errors.As(err, &off) {
		return off
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("fetch %s: %w", ue.URL, ue.Err)
	}
	return err
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tempFile is where a PDF waits while it is read.
func (s *Service) tempFile() (*os.File, error) {
	return os.CreateTemp(s.o.TempDir, "wisp-web-*.pdf")
}
