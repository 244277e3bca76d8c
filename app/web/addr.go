package web

import (
	"net/netip"
)

// special are the address ranges FETCH_URL does not reach unless the user allowed
// the host: what is not the public internet, and so may be the user's own machine
// or network (or a cloud's metadata service), with why in words.
var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a 'this network' address"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address (this machine)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address (where clouds keep their metadata service)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "a reserved address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a reserved relay address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address (this machine)"},
	{netip.MustParsePrefix("::/96"), "a deprecated IPv4-compatible address"},
	{netip.MustParsePrefix("100::/64"), "a discard address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("fc00::/7"), "a private (unique local) address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
}

// embedding are IPv6 ranges that carry an IPv4 address a gateway may reach for
// them (NAT64, 6to4): the IPv4 address inside is what is checked.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	nat64l = netip.MustParsePrefix("64:ff9b:1::/48")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// Special says what ip is when it is not a public internet address ("a private
// address"), or "" when it is one. IPv4-mapped, NAT64 and 6to4 IPv6 addresses are
// judged by the IPv4 address they carry.
func Special(ip netip.Addr) string {
	ip = ip.WithZone("").Unmap()
	if !ip.IsValid() {
		return "not an address"
	}
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip) || nat64l.Contains(ip):
			if why := Special(netip.AddrFrom4([4]byte(b[12:16]))); why != "" {
				return why + " behind NAT64"
			}
		case sixTo4.Contains(ip):
			if why := Special(netip.AddrFrom4([4]byte(b[2:6]))); why != "" {
				return why + " behind 6to4"
			}
		}
	}
	for _, s := range special {
		if s.prefix.Contains(ip) {
			return s.what
		}
	}
	return ""
}
