// Package web is the agent's hands on the web (docs/web.md): FETCH_URL reads a page
// (HTML made readable and turned into Markdown, text, JSON, a PDF through doctext's
// confined reader) and WEB_SEARCH asks the configured search backend (SearXNG's
// JSON API or Brave Search's API). Both are kinds of approval.Guard of kind web,
// whose base is the site: the registrable domain of the host ("example.com"), or
// the address of an IP host. Every connection is checked at connect time against
// the address it really reaches (no loopback, private, link-local or metadata
// address unless the user allowed the host in web.allowHosts; never Wisp's own
// port on this machine), and what comes back reaches the model fenced and marked
// as untrusted data.
//
// It knows the consent wrapper (approval), the runtime's actions, doctext and
// internal/; never chat, the store or the config.
package web

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"

	"github.com/wispapp/wisp/doctext"
)

// The search providers (config.SearchSearXNG, config.SearchBrave).
const (
	SearXNG = "searxng"
	Brave   = "brave"
)

// BraveURL is Brave Search's API, unless Search.BaseURL says otherwise.
const BraveURL = "https://api.search.brave.com"

// Settings are the user's, read at every call.
type Settings struct {
	// AllowHosts are hosts the agent may fetch although they resolve to loopback,
	// private or link-local addresses.
	AllowHosts []string
	Search     Search
}

// Search is the search backend; an empty Provider turns WEB_SEARCH off.
type Search struct {
	Provider, BaseURL, APIKey string
}

// Resolver finds a host's addresses (net.Resolver is one).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Limits bound a fetch. A zero field takes its default.
type Limits struct {
	Timeout       time.Duration // a whole fetch, body and reading included (20 s)
	HeaderTimeout time.Duration // from the request to the response's headers (10 s)
	MaxBody       int64         // bytes of a page read (5 MiB): the rest is cut
	MaxPDF        int64         // bytes of a PDF (20 MiB): a longer one is refused
	MaxRedirects  int           // redirects followed within a site (5)
	MaxMarkdown   int           // characters given to the model (60,000): the rest is cut with a note
}

// Defaults of Limits.
const (
	DefaultTimeout       = 20 * time.Second
	DefaultHeaderTimeout = 10 * time.Second
	DefaultMaxBody       = 5 << 20
	DefaultMaxPDF        = 20 << 20
	DefaultMaxRedirects  = 5
	DefaultMaxMarkdown   = 60_000
)

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.HeaderTimeout <= 0 {
		l.HeaderTimeout = DefaultHeaderTimeout
	}
	if l.MaxBody <= 0 {
		l.MaxBody = DefaultMaxBody
	}
	if l.MaxPDF <= 0 {
		l.MaxPDF = DefaultMaxPDF
	}
	if l.MaxRedirects <= 0 {
		l.MaxRedirects = DefaultMaxRedirects
	}
	if l.MaxMarkdown <= 0 {
		l.MaxMarkdown = DefaultMaxMarkdown
	}
	return l
}

// Options are what the service needs.
type Options struct {
	// Settings are the user's now (nil: none).
	Settings func() Settings
	// OwnPort is the port Wisp's API listens on now (0: none): never reached on
	// this machine, allowed host or not.
	OwnPort func() int
	// Version is Wisp's, in the User-Agent.
	Version string
	// Resolver finds hosts' addresses (nil: the system's).
	Resolver Resolver
	// Dial connects to an address already checked, "ip:port" (nil: a net.Dialer
	// that checks the address again as it connects). Tests point it at a fixture.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// ReadPDF reads a PDF's pages (nil: doctext.PDF, in its confined child).
	ReadPDF func(ctx context.Context, path string) ([]doctext.Page, bool, error)
	// TempDir is where a PDF waits while it is read (os.TempDir when empty).
	TempDir string
	Limits  Limits
	Logger  *slog.Logger
}

// Service fetches pages and searches for the agent.
type Service struct {
	o    Options
	lim  Limits
	conv *converter.Converter
}

// New builds the service; nothing runs until a call.
func New(o Options) *Service {
	if o.Settings == nil {
		o.Settings = func() Settings { return Settings{} }
	}
	if o.OwnPort == nil {
		o.OwnPort = func() int { return 0 }
	}
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.ReadPDF == nil {
		o.ReadPDF = func(ctx context.Context, path string) ([]doctext.Page, bool, error) {
			return doctext.PDF(ctx, path, doctext.Bounds{Time: 30 * time.Second, Pages: 500, Text: 4 << 20})
		}
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	conv := converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin()))
	return &Service{o: o, lim: o.Limits.withDefaults(), conv: conv}
}

// userAgent is how Wisp introduces itself to the sites it fetches.
func (s *Service) userAgent() string {
	return "Wisp/" + s.o.Version + " (+desktop assistant; fetches on the user's behalf)"
}
