package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// systemRuntime is the part of the Wails runtime the System binding uses: the
// desktop's notifications (over D-Bus on Linux), the system browser, the window and
// events to the page. The desktop build passes Wails' own (system_wails.go), tests
// a fake.
type systemRuntime interface {
	InitializeNotifications(ctx context.Context) error
	CleanupNotifications(ctx context.Context)
	// SendNotification shows a notification; data comes back with a click.
	SendNotification(ctx context.Context, id, title, body string, data map[string]any) error
	// OnNotificationResponse calls fn when the user acts on a notification, with the
	// action's id and the notification's data (or the error Wails reports).
	OnNotificationResponse(ctx context.Context, fn func(action string, data map[string]any, err error))
	BrowserOpenURL(ctx context.Context, url string)
	EventsEmit(ctx context.Context, name string)
	WindowShow(ctx context.Context)
	WindowUnminimise(ctx context.Context)
}

// notificationClicked is the action Wails reports for a click on the notification
// itself (its DefaultActionIdentifier).
const notificationClicked = "DEFAULT_ACTION"

// notificationClickedEvent tells the page that a notification was clicked; it then
// asks TakeClicked where to go (frontend/src/api/system.ts).
const notificationClickedEvent = "wisp:notification-clicked"

// Bounds of what the page may put in a notification.
const (
	maxNoticeTitle = 200
	maxNoticeBody  = 1000
	maxOpenURL     = 8 << 10
)

// Notice is a notification the page asks the desktop to show.
type Notice struct {
	// ID names the event (the page never notifies twice for one).
	ID             string `json:"id"`
	Title          string `json:"title"`
	Body           string `json:"body"`
	ConversationID string `json:"conversationId"`
}

// System is bound into the desktop window as window.go.desktop.System: what the page
// cannot do inside WebKitGTK. It shows the desktop's notifications and brings the
// window to the conversation of one clicked, and opens links in the system browser.
type System struct {
	rt  systemRuntime
	log *slog.Logger

	mu      sync.Mutex
	ctx     context.Context // the window's, once started
	notify  error           // why notifications cannot be shown (nil when they can)
	closed  bool            // the window has closed
	clicked string          // the conversation of the last notification clicked, until taken
}

func newSystem(rt systemRuntime, log *slog.Logger) *System {
	return &System{rt: rt, log: log, notify: errors.New("the window has not started")}
}

// started records the window's context (OnStartup); connectNotifications follows.
func (s *System) started(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctx = ctx
	s.notify = errors.New("desktop notifications are starting")
}

// connectNotifications connects to the desktop's notifications (the session bus on
// Linux). It may take a moment, so the window does not wait for it.
func (s *System) connectNotifications(ctx context.Context) {
	err := s.rt.InitializeNotifications(ctx)
	if err != nil {
		s.log.Warn("desktop notifications unavailable", "err", err)
		err = fmt.Errorf("desktop notifications are unavailable: %w", err)
	} else {
		s.rt.OnNotificationResponse(ctx, s.responded)
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.notify = err
	}
	s.mu.Unlock()
	if closed && err == nil {
		s.rt.CleanupNotifications(ctx)
	}
}

// stopped lets go of the notifications' connection (OnShutdown).
func (s *System) stopped(ctx context.Context) {
	s.mu.Lock()
	connected := s.notify == nil
	s.closed = true
	s.notify = errors.New("the window has closed")
	s.mu.Unlock()
	if connected {
		s.rt.CleanupNotifications(ctx)
	}
}

// Notify shows a notification from the desktop; a click on it brings the window
// forward on its conversation.
func (s *System) Notify(n Notice) error {
	title, body := clip(strings.TrimSpace(n.Title), maxNoticeTitle), clip(strings.TrimSpace(n.Body), maxNoticeBody)
	if title == "" {
		return errors.New("a notification needs a title")
	}
	s.mu.Lock()
	ctx, err := s.ctx, s.notify
	s.mu.Unlock()
	if err != nil {
		return err
	}
	data := map[string]any{"conversationId": n.ConversationID}
	if err := s.rt.SendNotification(ctx, n.ID, title, markupEscaper.Replace(body), data); err != nil {
		s.log.Warn("desktop notification not shown", "id", n.ID, "err", err)
		return fmt.Errorf("show the notification: %w", err)
	}
	s.log.Info("desktop notification shown", "id", n.ID, "conversation", n.ConversationID)
	return nil
}

// responded takes what the user did with a notification: a click on it brings the
// window forward and tells the page which conversation to open. Wails v2.16 on Linux
// reports a notification closed by the user the same way as a click.
func (s *System) responded(action string, data map[string]any, err error) {
	if err != nil {
		s.log.Warn("desktop notification response", "err", err)
		return
	}
	if action != notificationClicked {
		return
	}
	conv, _ := data["conversationId"].(string)
	s.mu.Lock()
	ctx := s.ctx
	if conv != "" {
		s.clicked = conv
	}
	s.mu.Unlock()
	s.log.Info("desktop notification clicked", "conversation", conv)
	s.rt.WindowShow(ctx)
	s.rt.WindowUnminimise(ctx)
	s.rt.EventsEmit(ctx, notificationClickedEvent)
}

// markupEscaper escapes what a notification server reads as markup in a body (the
// freedesktop spec's body-markup, which GNOME, KDE, dunst and mako support): a
// message or a command line is text, never a link or an image there.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// TakeClicked returns the conversation of the last notification clicked ("" when
// none) and forgets it, so the page opens it once.
func (s *System) TakeClicked() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	conv := s.clicked
	s.clicked = ""
	return conv
}

// OpenURL opens a link in the system's browser (or mail program): http and https
// with a host, and mailto; any other scheme is refused.
func (s *System) OpenURL(raw string) error {
	u, err := openableURL(raw)
	if err != nil {
		s.log.Warn("link not opened", "url", clip(raw, 200), "err", err)
		return err
	}
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	if ctx == nil {
		return errors.New("the window has not started")
	}
	s.rt.BrowserOpenURL(ctx, u)
	return nil
}

// openableURL checks a link and writes it so that Wails' own check passes: Wails
// v2.16 refuses URLs holding shell metacharacters (a Wikipedia link's parentheses,
// a space in a mailto subject) and some non-ASCII spaces, so after the host those,
// and every non-ASCII byte, are percent-encoded, and a non-ASCII host is written in
// its ASCII (punycode) form. For most characters the encoded URL names the same
// resource; for the sub-delimiters (! * ( ) $ ;) a server may tell them apart, but
// unencoded Wails would not open the link at all. An IPv6 literal host ([::1]) is
// refused: Wails refuses its brackets.
func openableURL(raw string) (string, error) {
	if len(raw) > maxOpenURL {
		return "", errors.New("the link is too long")
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", errors.New("the link holds control characters")
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("not a link: %w", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return webURL(u)
	case "mailto":
		if u.Opaque == "" {
			return "", errors.New("a mailto link needs an address")
		}
		return "mailto:" + encodeUnsafe(strings.TrimPrefix(u.String(), u.Scheme+":")), nil
	default:
		return "", fmt.Errorf("links of the scheme %q are not opened", u.Scheme)
	}
}

// webURL writes an http(s) link: the scheme, the host in ASCII, then the path,
// query and fragment as they were escaped, with what Wails refuses encoded.
func webURL(u *url.URL) (string, error) {
	if u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("a %s link needs a host", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("links with a user name are not opened")
	}
	host, err := idna.Lookup.ToASCII(u.Hostname())
	if err != nil || host == "" || strings.ContainsAny(host, unsafeInURL+":/?#@%") {
		return "", errors.New("the link's host is not a host name")
	}
	if port := u.Port(); port != "" {
		host += ":" + port
	}
	tail := u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		tail += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		tail += "#" + u.EscapedFragment()
	}
	return strings.ToLower(u.Scheme) + "://" + host + encodeUnsafe(tail), nil
}

// unsafeInURL are the characters Wails' URL check refuses (shell metacharacters and
// whitespace).
const unsafeInURL = ";|`$\\<>*{}[]()~! \t\"'"

// encodeUnsafe percent-encodes the characters of unsafeInURL and non-ASCII bytes.
func encodeUnsafe(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || strings.IndexByte(unsafeInURL, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// clip cuts s to at most n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
