package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// dialTimeout bounds one connection attempt.
const dialTimeout = 10 * time.Second

// RefusedError is a connection Wisp would not make: the address a host resolved
// to is not on the public internet (or is Wisp's own port on this machine).
type RefusedError struct {
	Host string
	IP   netip.Addr
	Why  string
}

func (e *RefusedError) Error() string {
	at := e.Host
	if e.IP.String() != e.Host {
		at = fmt.Sprintf("%s (%s)", e.Host, e.IP)
	}
	return fmt.Sprintf("refused to connect to %s: it is %s", at, e.Why)
}

// guard connects only to addresses it checked, at connect time: every request,
// every redirect, every address a name resolves to, whatever it resolved to
// before (DNS rebinding).
type guard struct {
	resolve Resolver
	// dial connects to a checked "ip:port" (nil: checkedDialer).
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	allowed func(host string) bool // the user's web.allowHosts (and a search backend)
	ownPort func() int
}

// allowSet is a host set as allowHosts names them (normalised).
func allowSet(hosts []string) func(string) bool {
	set := make(map[string]bool, len(hosts))
	for _, h := range hosts {
		if n, err := normalHost(h); err == nil {
			set[n] = true
		}
	}
	return func(h string) bool {
		n, err := normalHost(h)
		return err == nil && set[n]
	}
}

// refuse says why ip (on port, for a host the user allowed or not) is not reached,
// or nil.
func (g *guard) refuse(host string, ip netip.Addr, port int, allowed bool) error {
	if own := g.ownPort(); own != 0 && port == own && ownMachine(ip) {
		return &RefusedError{Host: host, IP: ip, Why: "Wisp's own API on this machine"}
	}
	if allowed {
		return nil
	}
	if why := Special(ip); why != "" {
		return &RefusedError{Host: host, IP: ip, Why: why + ", which Wisp does not fetch unless the user allows the host in Settings (web.allowHosts)"}
	}
	return nil
}

// ownMachine says whether ip may be this machine: loopback, unspecified, or one of
// its interfaces' addresses.
func ownMachine(ip netip.Addr) bool {
	ip = ip.WithZone("").Unmap()
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true // unknown: the careful answer
	}
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Unmap() == ip {
			return true
		}
	}
	return false
}

// DialContext is the transport's: addr is the URL's "host:port" (no proxy is ever
// used), resolved here, each address checked, then connected to by address.
func (g *guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return nil, fmt.Errorf("bad port %q", p)
	}
	allowed := g.allowed(host)
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if localName(strings.ToLower(strings.TrimSuffix(host, "."))) && !allowed {
		return nil, &RefusedError{Host: host, IP: netip.IPv6Loopback(), Why: Special(netip.IPv6Loopback()) +
			", which Wisp does not fetch unless the user allows the host in Settings (web.allowHosts)"}
	} else {
		ips, err = g.resolve.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("look up %s: %w", host, err)
		}
	}
	var refused, failed error
	for _, ip := range ips {
		ip = ip.WithZone("").Unmap()
		if err := g.refuse(host, ip, port, allowed); err != nil {
			refused = cmpOr(refused, err)
			continue
		}
		target := netip.AddrPortFrom(ip, uint16(port)).String()
		var conn net.Conn
		if g.dial != nil {
			conn, err = g.dial(ctx, network, target)
		} else {
			conn, err = g.checkedDialer(host, allowed).DialContext(ctx, network, target)
		}
		if err == nil {
			return conn, nil
		}
		failed = cmpOr(failed, err)
		if ctx.Err() != nil {
			break
		}
	}
	if err := cmpOr(failed, refused); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s has no address", host)
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// checkedDialer is the production dial: a net.Dialer whose Control checks, once
// more, the address the socket is about to connect to.
func (g *guard) checkedDialer(host string, allowed bool) *net.Dialer {
	return &net.Dialer{Timeout: dialTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("connect to %s: %w", address, err)
		}
		return g.refuse(host, ap.Addr().Unmap(), int(ap.Port()), allowed)
	}}
}

// isRefused says whether err is a connection Wisp refused.
func isRefused(err error) (*RefusedError, bool) {
	var r *RefusedError
	ok := errors.As(err, &r)
	return r, ok
}
