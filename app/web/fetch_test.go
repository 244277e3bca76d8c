package web

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := CheckURL(raw)
	if err != nil {
		t.Fatalf("CheckURL(%q): %v", raw, err)
	}
	return u
}

func (f *fixture) fetch(s *Service, raw string) (*Page, error) {
	f.t.Helper()
	return s.Fetch(context.Background(), mustURL(f.t, raw))
}

// TestFetchArticle: an article comes back as its readable part in Markdown: the
// title, headings, paragraphs, a code block, links made absolute; not the menu, the
// footer or the script.
func TestFetchArticle(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{}), f.url("example.com", "/article"))
	if err != nil {
		t.Fatal(err)
	}
	md := page.Markdown
	for _, want := range []string{
		"Green tea is made from leaves that are not oxidised.",
		"## Brewing",
		"water: 80 C\ntime: 2-3 min",
		"[the black tea guide](" + f.url("example.com", "/tea/black") + ")",
		"- Sencha\n- Gyokuro\n- Matcha",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	for _, never := range []string{"alert", "Shop", "All rights reserved"} {
		if strings.Contains(md, never) {
			t.Errorf("the Markdown has %q:\n%s", never, md)
		}
	}
	if page.Title != "A Guide to Tea | Example" || page.URL != f.url("example.com", "/article") || page.Type != "text/html" {
		t.Fatalf("page %q %q %q", page.Title, page.URL, page.Type)
	}
}

// TestFetchKinds: text and Markdown pass through (decoded, cleaned), JSON is a code
// block, a PDF is read by doctext's reader, a body without a type is sniffed, and
// what is none of these is refused in words.
func TestFetchKinds(t *testing.T) {
	f := newFixture(t)
	s := f.service(Limits{})
	cases := []struct{ path, want, title string }{
		{"/notes.txt", "line one\nline two\n", "notes.txt"},
		{"/readme.md", "# Title\n\nSome *markdown*.", "readme.md"},
		{"/data.json", "```json\n{\n  \"name\": \"wisp\",\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}\n```", "data.json"},
		{"/latin1", "café", "latin1"},
		{"/untyped", "## Brewing", "A Guide to Tea | Example"},
		{"/paper.pdf", "## Page 1\n\nThe first page of the paper.\n\n## Page 2\n\nResults are on page two.", "paper.pdf"},
	}
	for _, c := range cases {
		page, err := f.fetch(s, f.url("example.com", c.path))
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if !strings.Contains(page.Markdown, c.want) || page.Title != c.title {
			t.Errorf("%s: title %q, Markdown:\n%s\nwant %q", c.path, page.Title, page.Markdown, c.want)
		}
	}
	_, err := f.fetch(s, f.url("example.com", "/image.png"))
	if err == nil || err.Error() != "FETCH_URL reads web pages, text and PDFs, not image/png" {
		t.Errorf("an image: %v", err)
	}
	_, err = f.fetch(s, f.url("example.com", "/missing"))
	if err == nil || !strings.Contains(err.Error(), "answered 404 Not Found") {
		t.Errorf("a missing page: %v", err)
	}
}

// TestFetchRedirects: redirects within the site are followed up to the limit; one to
// another site, to this machine or out of http(s) is not.
func TestFetchRedirects(t *testing.T) {
	f := newFixture(t)
	s := f.service(Limits{})
	page, err := f.fetch(s, f.url("example.com", "/redirect/4")) // five redirects
	if err != nil || !strings.HasPrefix(page.Title, "A Guide to Tea") {
		t.Fatalf("five redirects: %v %+v", err, page)
	}
	if _, err := f.fetch(s, f.url("example.com", "/redirect/5")); err == nil || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Fatalf("six redirects: %v", err)
	}
	page, err = f.fetch(s, f.url("example.com", "/to-www"))
	if err != nil || page.URL != f.url("www.example.com", "/article") {
		t.Fatalf("to www: %v %+v", err, page)
	}
	var off *OffSiteError
	if _, err := f.fetch(s, f.url("example.com", "/to-other")); !errors.As(err, &off) ||
		!strings.Contains(err.Error(), "on another site (other.org): it was not followed") {
		t.Fatalf("to another site: %v", err)
	}
	if _, err := f.fetch(s, f.url("example.com", "/to-loopback")); !errors.As(err, &off) {
		t.Fatalf("to 127.0.0.1: %v", err)
	}
	if _, err := f.fetch(s, f.url("example.com", "/to-file")); err == nil || !strings.Contains(err.Error(), "not http or https") {
		t.Fatalf("to a file: %v", err)
	}
	if n := f.hit("other.org", "/article") + f.hit("127.0.0.1", "/secret"); n != 0 {
		t.Fatalf("a redirect off the site was followed %d times", n)
	}
}

// TestFetchRefusesTheUsersNetwork: a name that resolves to a private, loopback or
// link-local address is refused at connect time, on a redirect too, and after a
// first public answer (DNS rebinding); nothing is ever dialed there.
func TestFetchRefusesTheUsersNetwork(t *testing.T) {
	f := newFixture(t)
	s := f.service(Limits{})
	cases := []struct{ url, want string }{
		{f.url("internal.example.com", "/secret"), "internal.example.com (10.0.0.5): it is a private address"},
		{f.url("metadata.example.com", "/latest/meta-data/"), "169.254.169.254): it is a link-local address"},
		{f.url("mixed.example.com", "/secret"), "mixed.example.com (192.168.1.1): it is a private address"},
		{f.url("example.com", "/to-internal"), "internal.example.com (10.0.0.5): it is a private address"},
		{f.url("rebind.example.com", "/to-rebind"), "rebind.example.com (10.0.0.5): it is a private address"},
		{f.url("[::ffff:127.0.0.1]", "/secret"), "(127.0.0.1): it is a loopback address"},
		{f.url("[64:ff9b::a00:5]", "/secret"), "a private address behind NAT64"},
		{f.url("localhost", "/secret"), "it is a loopback address"},
	}
	for _, c := range cases {
		_, err := f.fetch(s, c.url)
		if _, ok := isRefused(err); !ok || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "web.allowHosts") {
			t.Errorf("%s: %v, want %q", c.url, err, c.want)
		}
	}
	if n := f.hit("127.0.0.1", "/secret") + f.hit("internal.example.com", "/secret") + f.hit("rebind.example.com", "/secret"); n != 0 {
		t.Fatalf("the secret was read %d times", n)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range f.dialed {
		if !strings.HasPrefix(d, publicIP.String()+":") {
			t.Errorf("dialed %s", d)
		}
	}
}

// TestFetchAllowedHosts: a host the user allowed is reached on their network, read
// live from the settings, but never Wisp's own port on this machine.
func TestFetchAllowedHosts(t *testing.T) {
	f := newFixture(t)
	s := f.service(Limits{})
	if _, err := f.fetch(s, f.url("127.0.0.1", "/secret")); err == nil {
		t.Fatal("127.0.0.1 was fetched without being allowed")
	}
	f.settings.AllowHosts = []string{"127.0.0.1"}
	page, err := f.fetch(s, f.url("127.0.0.1", "/secret"))
	if err != nil || page.Markdown != "the router's admin password" {
		t.Fatalf("allowed: %v %+v", err, page)
	}
	own := New(Options{Settings: func() Settings { return f.settings }, Resolver: f.resolver, Dial: f.dial,
		OwnPort: f.port})
	if _, err := f.fetch(own, f.url("127.0.0.1", "/secret")); err == nil || !strings.Contains(err.Error(), "Wisp's own API on this machine") {
		t.Fatalf("Wisp's own port: %v", err)
	}
}

// TestDefaultRefusesLoopback: the production resolver and dialer (nothing injected)
// refuse this machine, by address and by name, and the dialer's own check refuses a
// loopback connection even when called directly.
func TestDefaultRefusesLoopback(t *testing.T) {
	f := newFixture(t)
	s := New(Options{})
	for _, host := range []string{"127.0.0.1", "[::1]", "localhost", "0.0.0.0", "127.1.2.3"} {
		_, err := f.fetch(s, f.url(host, "/secret"))
		if _, ok := isRefused(err); !ok {
			t.Errorf("%s: %v", host, err)
		}
	}
	if n := f.hit("127.0.0.1", "/secret"); n != 0 {
		t.Fatalf("the production path reached loopback %d times", n)
	}
	g := &guard{allowed: allowSet(nil), ownPort: func() int { return 0 }}
	conn, err := g.checkedDialer("example.com", false).DialContext(context.Background(), "tcp", f.srv.Listener.Addr().String())
	if err == nil {
		conn.Close()
		t.Fatal("the dialer's control connected to loopback")
	}
	if _, ok := isRefused(err); !ok {
		t.Fatalf("the dialer's control: %v", err)
	}
}

// TestFetchHugeBody: a 100 MiB body is read to the cap and cut, with a note; the
// model gets at most MaxMarkdown characters.
func TestFetchHugeBody(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{}), f.url("example.com", "/huge"))
	if err != nil {
		t.Fatal(err)
	}
	if page.Bytes != DefaultMaxBody {
		t.Fatalf("read %d bytes", page.Bytes)
	}
	if n := len([]rune(page.Markdown)); n > DefaultMaxMarkdown+200 || !strings.Contains(page.Markdown, "more characters were left out.]\n\n[The page is longer than 5 MiB: only its beginning was read.]") {
		t.Fatalf("%d characters, ending %q", n, page.Markdown[len(page.Markdown)-80:])
	}
}

// TestFetchHugeHTML: an HTML page is parsed as it arrives, and still only to the
// cap: 100 MiB of paragraphs are read to 5 MiB, with the same notes as text.
func TestFetchHugeHTML(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{}), f.url("example.com", "/huge.html"))
	if err != nil {
		t.Fatal(err)
	}
	if page.Bytes != DefaultMaxBody || page.Type != "text/html" {
		t.Fatalf("read %d bytes of %s", page.Bytes, page.Type)
	}
	if n := len([]rune(page.Markdown)); n > DefaultMaxMarkdown+200 || !strings.HasPrefix(page.Markdown, "Many words in a paragraph.") ||
		!strings.HasSuffix(page.Markdown, "more characters were left out.]\n\n[The page is longer than 5 MiB: only its beginning was read.]") {
		t.Fatalf("%d characters, ending %q", n, page.Markdown[max(0, len(page.Markdown)-120):])
	}
}

// TestFetchHTMLAtTheCap: a page of exactly MaxBody bytes is whole; one byte more
// and it is cut, with the note.
func TestFetchHTMLAtTheCap(t *testing.T) {
	f := newFixture(t)
	whole, err := f.fetch(f.service(Limits{MaxBody: int64(len(articleHTML))}), f.url("example.com", "/article"))
	if err != nil {
		t.Fatal(err)
	}
	if whole.Bytes != int64(len(articleHTML)) || strings.Contains(whole.Markdown, "only its beginning was read") || !strings.Contains(whole.Markdown, "## Brewing") {
		t.Fatalf("at the cap, %d bytes:\n%s", whole.Bytes, whole.Markdown)
	}
	cut, err := f.fetch(f.service(Limits{MaxBody: int64(len(articleHTML)) - 1}), f.url("example.com", "/article"))
	if err != nil {
		t.Fatal(err)
	}
	if cut.Bytes != int64(len(articleHTML))-1 || !strings.HasSuffix(cut.Markdown, "[The page is longer than "+fmt.Sprint(len(articleHTML)-1)+" bytes: only its beginning was read.]") {
		t.Fatalf("one byte past the cap, %d bytes:\n%s", cut.Bytes, cut.Markdown)
	}
}

// TestFetchInlineCSS: a page's inline styles and scripts do not count as its text:
// 300 KB of them in the head leave the article whole.
func TestFetchInlineCSS(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{}), f.url("example.com", "/inline-css"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Markdown, "Green tea is made from leaves that are not oxidised.") || !strings.Contains(page.Markdown, "## Brewing") ||
		strings.Contains(page.Markdown, "color:red") || strings.Contains(page.Markdown, "left out") {
		t.Fatalf("%d characters:\n%.2000s", len(page.Markdown), page.Markdown)
	}
}

// TestFetchHTMLCharset: the charset a page names in its first bytes decodes the
// whole page, read as it arrives.
func TestFetchHTMLCharset(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{}), f.url("example.com", "/latin1.html"))
	if err != nil {
		t.Fatal(err)
	}
	if page.Title != "Café" || !strings.Contains(page.Markdown, "Un café crème.") {
		t.Fatalf("%q:\n%s", page.Title, page.Markdown)
	}
}

// TestFetchSlowBody: a body that never ends is stopped by the time limit.
func TestFetchSlowBody(t *testing.T) {
	f := newFixture(t)
	_, err := f.fetch(f.service(Limits{Timeout: 300 * time.Millisecond}), f.url("example.com", "/slow"))
	if err == nil || !strings.Contains(err.Error(), "did not arrive within 300ms") {
		t.Fatalf("a slow body: %v", err)
	}
	if f.hit("example.com", "/slow") != 1 {
		t.Fatal("the slow page was not asked for")
	}
}

// TestFetchStopped: a stop ends a fetch at once, as a stop (not as a time limit).
func TestFetchStopped(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.service(Limits{}).Fetch(ctx, mustURL(t, f.url("example.com", "/slow")))
		done <- err
	}()
	<-f.slow // the server is sending the page
	cancel()
	if err := <-done; err == nil || strings.Contains(err.Error(), "did not arrive") {
		t.Fatalf("stopped: %v", err)
	}
}

// TestFetchLongArticle: a page far longer than the bound gives its beginning, cut at
// a line end, with a note of about how much was left out; the end never arrives.
func TestFetchLongArticle(t *testing.T) {
	f := newFixture(t)
	page, err := f.fetch(f.service(Limits{MaxMarkdown: 5000}), f.url("example.com", "/long"))
	if err != nil {
		t.Fatal(err)
	}
	md := page.Markdown
	body, note, ok := strings.Cut(md, "\n\n[Cut here: about ")
	if !ok || !strings.HasSuffix(note, " more characters were left out.]") || len([]rune(body)) > 5000 {
		t.Fatalf("the cut (%d characters): ...%s", len([]rune(body)), md[max(0, len(md)-200):])
	}
	var left int
	fmt.Sscan(note, &left)
	if !strings.Contains(body, "PARA-0 ") || strings.Contains(md, "PARA-2999") || left < 300_000 {
		t.Fatalf("kept %d characters, said %d left out", len(body), left)
	}
}

// TestFetchHostileFiles: a PDF that is not one is refused in doctext's words, one
// that says it is larger than the cap is refused before it is read, and a gzip bomb
// inflates only to the body cap.
func TestFetchHostileFiles(t *testing.T) {
	f := newFixture(t)
	s := f.service(Limits{})
	if _, err := f.fetch(s, f.url("example.com", "/garbage.pdf")); err == nil || !strings.HasPrefix(err.Error(), "the PDF could not be read") {
		t.Errorf("a garbage PDF: %v", err)
	}
	if _, err := f.fetch(s, f.url("example.com", "/big.pdf")); err == nil || err.Error() != "the PDF is 64 MiB, larger than the 20 MiB FETCH_URL reads" {
		t.Errorf("a 64 MiB PDF: %v", err)
	}
	page, err := f.fetch(s, f.url("example.com", "/bomb.txt"))
	if err != nil || page.Bytes != DefaultMaxBody || !strings.HasSuffix(page.Markdown, "only its beginning was read.]") {
		t.Fatalf("a gzip bomb: %v %d bytes", err, page.Bytes)
	}
}
