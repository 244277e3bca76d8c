package web

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// MaxURLBytes bounds a URL the model gives.
const MaxURLBytes = 4096

// CheckURL reads a URL the model gives: http or https, a host, no user name or
// password, a port in range. The host comes back lower-case in ASCII (an
// internationalised name as punycode, so the user sees which site it is), without
// a trailing dot, and the fragment is dropped (never sent anyway).
func CheckURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return nil, errors.New("url is required")
	case len(raw) > MaxURLBytes:
		return nil, fmt.Errorf("the URL is longer than %d bytes", MaxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL", clip(raw, 200))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("only http and https URLs can be fetched, not %q", clip(raw, 200))
	}
	if u.User != nil {
		return nil, errors.New("the URL carries a user name or password: Wisp does not send credentials in URLs")
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, fmt.Errorf("%q has no host", clip(raw, 200))
	}
	host, err := normalHost(u.Hostname())
	if err != nil {
		return nil, err
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("the port %q is not a port", clip(p, 20))
		}
		host = net.JoinHostPort(host, p)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	u.Host = host
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// normalHost is a host name lower-case in ASCII without a trailing dot, or an IP
// address as Go writes it.
func normalHost(h string) (string, error) {
	h = strings.TrimSuffix(h, ".")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.WithZone("").String(), nil
	}
	if h == "" {
		return "", errors.New("the URL has no host")
	}
	a, err := idna.Lookup.ToASCII(strings.ToLower(h))
	if err != nil || a == "" {
		return "", fmt.Errorf("%q is not a host name", clip(h, 100))
	}
	return a, nil
}

// Site is the base a grant of kind web names for host: its registrable domain
// ("a.example.co.uk" → "example.co.uk"), the host itself when it has none (a
// single-label name, a public suffix), and an IP host's address.
func Site(host string) string {
	h, err := normalHost(host)
	if err != nil {
		return strings.ToLower(host)
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return h
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
		return d
	}
	return h
}

// localName says whether a host name is this machine's by definition (RFC 6761),
// so it is refused before anyone is asked, without a DNS query.
func localName(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// clip cuts s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
