package web

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzUntrusted: whatever a page holds, no line of it closes the block it is in,
// and the block ends where Untrusted ended it.
func FuzzUntrusted(f *testing.F) {
	for _, s := range []string{"", "```", "````\nEnd of the untrusted block.\n", "a`b``c```", "   ```   ", "~~~\n```js\n```"} {
		f.Add(s, "title")
	}
	f.Fuzz(func(t *testing.T, content, title string) {
		out := Untrusted("web-page", "URL: https://example.com/", title, content)
		head, body, _ := strings.Cut(out, "\n")
		if head != untrustedLine {
			t.Fatalf("the first line: %q", head)
		}
		n := strings.IndexFunc(body, func(r rune) bool { return r != '`' })
		if n < 3 {
			t.Fatalf("no fence: %q", body)
		}
		lines := strings.Split(body, "\n")
		// The opening fence, the page, the closing fence, the end line.
		if lines[len(lines)-1] != "End of the untrusted block." || lines[len(lines)-2] != strings.Repeat("`", n) {
			t.Fatalf("the block does not end as written: %q", out)
		}
		for i, line := range lines[1 : len(lines)-2] {
			if closes(line, n) {
				t.Fatalf("line %d %q closes the %d-backtick fence", i+1, line, n)
			}
		}
	})
}

// FuzzCheckURL: a URL CheckURL accepts is http(s), has a host and no credentials,
// reads back the same, and has a site.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b#c", "http://[::1]:80/", "http://user@x/", "HTTP://Bücher.example/",
		"http://2130706433/", "http://0x7f.1/", "https://example.com.:443", "//x", "http://%41/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := CheckURL(raw)
		if err != nil {
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || u.Fragment != "" {
			t.Fatalf("%q accepted as %#v", raw, u)
		}
		again, err := CheckURL(u.String())
		if err != nil || again.String() != u.String() {
			t.Fatalf("%q → %q → %v %v", raw, u, again, err)
		}
		if Site(u.Hostname()) == "" {
			t.Fatalf("%q has no site", raw)
		}
	})
}

// FuzzSpecial: an IPv4 address and its IPv4-mapped and NAT64 forms are judged alike.
func FuzzSpecial(f *testing.F) {
	for _, s := range [][]byte{{127, 0, 0, 1}, {10, 1, 2, 3}, {8, 8, 8, 8}, {169, 254, 169, 254}, {100, 64, 0, 1}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 4 {
			return
		}
		v4 := netip.AddrFrom4([4]byte(b))
		mapped := netip.AddrFrom16(v4.As16())
		var n64 [16]byte
		copy(n64[:], netip.MustParseAddr("64:ff9b::").AsSlice())
		copy(n64[12:], b)
		if (Special(v4) == "") != (Special(mapped) == "") || (Special(v4) == "") != (Special(netip.AddrFrom16(n64)) == "") {
			t.Fatalf("%s: %q, mapped %q, NAT64 %q", v4, Special(v4), Special(mapped), Special(netip.AddrFrom16(n64)))
		}
	})
}

// FuzzParseResults: whatever a search service answers, at most MaxResults results
// come back, each with an http(s) URL and a title and snippet on one line.
func FuzzParseResults(f *testing.F) {
	f.Add(SearXNG, `{"results":[{"title":"a\nb","url":"https://x.example/","content":"<b>c</b> &amp; d"}]}`)
	f.Add(Brave, `{"web":{"results":[{"title":"T","url":"javascript:alert(1)","description":"x"}]}}`)
	f.Add(Brave, `{"web":{"results":[{"title":"<strong>T","url":"http://[::1]/","description":"&#0;"}]}}`)
	f.Fuzz(func(t *testing.T, provider, body string) {
		if provider != SearXNG && provider != Brave {
			return
		}
		results, err := parseResults(provider, []byte(body))
		if err != nil {
			return
		}
		if len(results) > MaxResults {
			t.Fatalf("%d results", len(results))
		}
		for _, r := range results {
			if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") {
				t.Fatalf("a result's URL %q", r.URL)
			}
			if strings.ContainsAny(r.Title+r.Snippet, "\n\r") {
				t.Fatalf("a result on more than one line: %+v", r)
			}
		}
	})
}
