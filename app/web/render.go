package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"

	"github.com/wispapp/wisp/doctext"
)

// maxElements bounds the elements readability scores: past it the page is
// converted whole (the scoring is the expensive part).
const maxElements = 100_000

// render turns a body of kind into the page's Markdown, bounded.
func (s *Service) render(page *Page, kind string, body []byte, cut bool, contentType string, params map[string]string, final *url.URL) error {
	var md string
	left := 0
	switch kind {
	case "html":
		title, text, pruned, err := s.markdown(bytes.NewReader(body), contentType, final)
		if err != nil {
			return err
		}
		page.Title, md, left = title, text, pruned
	case "text", "json", "xml":
		// Only the beginning can reach the model: 4 bytes a character at most.
		if limit := 4 * s.lim.MaxMarkdown; len(body) > limit {
			for limit > 0 && !utf8.RuneStart(body[limit]) {
				limit--
			}
			left, body = utf8.RuneCount(body[limit:]), body[:limit]
		}
	}
	switch kind {
	case "text":
		text, err := decodeText(body, params["charset"])
		if err != nil {
			return err
		}
		md = text
	case "json", "xml":
		text, err := decodeText(body, params["charset"])
		if err != nil {
			return err
		}
		if kind == "json" && left == 0 && len(text) < 1<<20 {
			var b bytes.Buffer
			if json.Indent(&b, []byte(text), "", "  ") == nil {
				text = b.String()
			}
		}
		md = fenced(kind, text)
	}
	s.finish(page, md, left, cut, final)
	return nil
}

// renderHTML reads an HTML page from resp's body as it arrives, up to MaxBody
// bytes: the parse works on each part while the next is on its way, and the body is
// never held whole beside its DOM.
func (s *Service) renderHTML(page *Page, resp *http.Response, final *url.URL) error {
	body := s.bodyReader(resp)
	title, md, left, err := s.markdown(body, resp.Header.Get("Content-Type"), final)
	if body.err != nil { // the transport failed (a time limit, a reset): say that, not the parse
		return plainError(body.err)
	}
	if err != nil {
		return err
	}
	page.Title, page.Bytes = title, body.n
	s.finish(page, md, left, body.cut, final)
	return nil
}

// finish gives page its Markdown, bounded (left: characters already left out), and
// a title when it has none.
func (s *Service) finish(page *Page, md string, left int, cut bool, final *url.URL) {
	if page.Title == "" {
		page.Title = titleFromPath(final)
	}
	page.Markdown = bound(md, s.lim.MaxMarkdown, left)
	if cut {
		page.Markdown += fmt.Sprintf("\n\n[The page is longer than %s: only its beginning was read.]", mib(s.lim.MaxBody))
	}
}

// markdown is an HTML page's readable part (readability) as Markdown, and its title.
// Only what can reach the model is worked on: the document is cut after a few
// times the Markdown bound of text before readability scores it, and the article
// after a little more than the bound before it is converted (both passes cost
// in proportion to what they read; docs/web.md, BENCHMARKS.md).
func (s *Service) markdown(body io.Reader, contentType string, final *url.URL) (string, string, int, error) {
	// The charset comes from the header or the first 1,024 bytes (a BOM, a <meta>).
	r, err := charset.NewReader(body, contentType)
	if err != nil { // fewer than 1,024 bytes and a failure, or none at all
		r = strings.NewReader("")
	}
	doc, err := html.Parse(r)
	if err != nil {
		return "", "", 0, fmt.Errorf("the page's HTML could not be read: %v", err)
	}
	title := docTitle(doc)
	node := doc
	left := prune(doc, 4*s.lim.MaxMarkdown)
	p := readability.NewParser()
	p.MaxElemsToParse = maxElements
	if art, err := p.ParseAndMutate(doc, final); err == nil && art.Node != nil {
		node = art.Node
		if t := strings.TrimSpace(art.Title()); t != "" {
			title = t
		}
	} else {
		dropNoise(doc)
	}
	left += prune(node, s.lim.MaxMarkdown+s.lim.MaxMarkdown/4)
	out, err := s.conv.ConvertNode(node, converter.WithDomain(final.String()))
	if err != nil {
		return "", "", 0, fmt.Errorf("the page could not be turned into text: %v", err)
	}
	return oneLine(title), strings.TrimSpace(string(out)), left, nil
}

// prune keeps the first budget bytes of text under n (and the elements around
// them), removing everything after; it answers how many bytes of text it removed.
// What is never read as text (scripts, styles) is kept where it is but not
// counted: 300 KB of inline CSS in a page's head must not use up the budget before
// its article (readability drops them first, and reads JSON-LD metadata in
// scripts).
func prune(n *html.Node, budget int) (removed int) {
	var walk func(n *html.Node) bool // whether the budget ran out in n
	walk = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			budget -= len(n.Data)
			return budget <= 0
		}
		if notText(n) {
			return false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				for next := c.NextSibling; next != nil; next = c.NextSibling {
					removed += textLen(next)
					n.RemoveChild(next)
				}
				return true
			}
		}
		return false
	}
	walk(n)
	return removed
}

// notText is an element whose content is never the page's text.
func notText(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "" && (n.Data == "script" || n.Data == "style")
}

// textLen is the bytes of text under n, scripts and styles left out.
func textLen(n *html.Node) int {
	if n.Type == html.TextNode {
		return len(n.Data)
	}
	if notText(n) {
		return 0
	}
	total := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		total += textLen(c)
	}
	return total
}

// docTitle is the text of the document's <title>.
func docTitle(n *html.Node) string {
	var walk func(*html.Node, int) string
	walk = func(n *html.Node, depth int) string {
		if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
			return n.FirstChild.Data
		}
		if n.Type == html.ElementNode && n.Data == "body" || depth > 4 {
			return ""
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if t := walk(c, depth+1); t != "" {
				return t
			}
		}
		return ""
	}
	return walk(n, 0)
}

// dropNoise removes what is never text (scripts, styles) from a page readability
// could not make sense of.
func dropNoise(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (c.Data == "script" || c.Data == "style" || c.Data == "noscript" || c.Data == "template") {
			n.RemoveChild(c)
		} else {
			dropNoise(c)
		}
		c = next
	}
}

// decodeText is a body in its charset as clean UTF-8: no NULs, LF line ends.
func decodeText(body []byte, cs string) (string, error) {
	var r io.Reader = bytes.NewReader(body)
	if cs != "" && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		if dr, err := charset.NewReaderLabel(cs, r); err == nil {
			r = dr
		}
	}
	text, _, err := doctext.Text(r, int64(len(body))*4+16)
	return text, err
}

// readPDF streams a PDF to a temporary file (refused past MaxPDF) and reads it.
func (s *Service) readPDF(ctx context.Context, page *Page, resp *http.Response) (*Page, error) {
	page.Type = "application/pdf"
	if resp.ContentLength > s.lim.MaxPDF {
		return nil, fmt.Errorf("the PDF is %s, larger than the %s FETCH_URL reads", mib(resp.ContentLength), mib(s.lim.MaxPDF))
	}
	return s.pdfFrom(ctx, page, resp.Body)
}

func (s *Service) pdfFrom(ctx context.Context, page *Page, r io.Reader) (*Page, error) {
	f, err := s.tempFile()
	if err != nil {
		return nil, fmt.Errorf("keep the PDF: %w", err)
	}
	defer os.Remove(f.Name())
	n, err := io.Copy(f, io.LimitReader(r, s.lim.MaxPDF+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, plainError(err)
	}
	if n > s.lim.MaxPDF {
		return nil, fmt.Errorf("the PDF is larger than the %s FETCH_URL reads", mib(s.lim.MaxPDF))
	}
	page.Bytes = n
	pages, truncated, err := s.o.ReadPDF(ctx, f.Name())
	if err != nil {
		var de *doctext.Error
		if errors.As(err, &de) {
			return nil, errors.New(de.Msg)
		}
		return nil, err
	}
	var b strings.Builder
	for _, p := range pages {
		fmt.Fprintf(&b, "## Page %d\n\n%s\n\n", p.N, strings.TrimSpace(p.Text))
	}
	md := strings.TrimSpace(b.String())
	if md == "" {
		md = "[The PDF has no text: it may be scanned images.]"
	}
	if truncated {
		md += "\n\n[The PDF has more pages or text than were read.]"
	}
	u, _ := url.Parse(page.URL)
	page.Title = titleFromPath(u)
	page.Markdown = bound(md, s.lim.MaxMarkdown, 0)
	return page, nil
}

// titleFromPath names a page without a title by its URL's last path element.
func titleFromPath(u *url.URL) string {
	if u == nil {
		return ""
	}
	if b := path.Base(u.Path); b != "/" && b != "." {
		if un, err := url.PathUnescape(b); err == nil {
			b = un
		}
		return oneLine(b)
	}
	return u.Hostname()
}

// oneLine is s on one line, spaces collapsed, at most 300 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if utf8.RuneCountInString(s) > 300 {
		s = string([]rune(s)[:300]) + "…"
	}
	return s
}

// bound cuts md to at most max characters, at a line end when one is near,
// saying about how much was left out (more: characters already left out before).
func bound(md string, max, more int) string {
	end, count := len(md), 0
	for i := range md {
		if count == max {
			end = i
			break
		}
		count++
	}
	if end == len(md) && more == 0 {
		return md
	}
	cut := md[:end]
	if end < len(md) {
		if i := strings.LastIndexByte(cut, '\n'); i > len(cut)*3/4 {
			cut = cut[:i]
		}
	}
	left := utf8.RuneCountInString(md[len(cut):]) + more
	return strings.TrimRight(cut, " \n") + fmt.Sprintf("\n\n[Cut here: about %d more characters were left out.]", left)
}
