package desktop

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// fakeSystemRuntime stands in for the Wails runtime: it records each call, and keeps
// the notification response handler so a test can click like the desktop does.
type fakeSystemRuntime struct {
	mu       sync.Mutex
	initErr  error
	sendErr  error
	calls    []string
	sent     []sentNotice
	respond  func(action string, data map[string]any, err error)
	opened   []string
	emitted  []string
	contexts []string
}

type sentNotice struct {
	id, title, body string
	data            map[string]any
}

func (f *fakeSystemRuntime) record(ctx context.Context, call string) {
	f.calls = append(f.calls, call)
	f.contexts = append(f.contexts, ctxName(ctx))
}

func (f *fakeSystemRuntime) InitializeNotifications(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "init")
	return f.initErr
}

func (f *fakeSystemRuntime) CleanupNotifications(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "cleanup")
}

func (f *fakeSystemRuntime) SendNotification(ctx context.Context, id, title, body string, data map[string]any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "send")
	if f.sendErr != nil {
		return f.sendErr
	}
	f.sent = append(f.sent, sentNotice{id, title, body, data})
	return nil
}

func (f *fakeSystemRuntime) OnNotificationResponse(ctx context.Context, fn func(string, map[string]any, error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "on-response")
	f.respond = fn
}

func (f *fakeSystemRuntime) BrowserOpenURL(ctx context.Context, url string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "open")
	f.opened = append(f.opened, url)
}

func (f *fakeSystemRuntime) EventsEmit(ctx context.Context, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "emit "+name)
	f.emitted = append(f.emitted, name)
}

func (f *fakeSystemRuntime) WindowShow(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "show")
}

func (f *fakeSystemRuntime) WindowUnminimise(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record(ctx, "unminimise")
}

// click acts on the last notification the way Wails reports it.
func (f *fakeSystemRuntime) click(t *testing.T, action string) {
	t.Helper()
	f.mu.Lock()
	respond, sent := f.respond, f.sent
	f.mu.Unlock()
	if respond == nil || len(sent) == 0 {
		t.Fatal("no notification to click")
	}
	respond(action, sent[len(sent)-1].data, nil)
}

func startedSystem(t *testing.T, rt *fakeSystemRuntime) *System {
	t.Helper()
	s := newSystem(rt, slog.New(slog.DiscardHandler))
	ctx := context.WithValue(context.Background(), ctxKey{}, "wails")
	s.started(ctx)
	s.connectNotifications(ctx)
	return s
}

// A notice goes to the desktop with its conversation; a click on it brings the window
// forward and tells the page, which then takes the conversation once.
func TestSystemNotifiesAndAClickOpensTheConversation(t *testing.T) {
	rt := &fakeSystemRuntime{}
	s := startedSystem(t, rt)
	if err := s.Notify(Notice{ID: "message:m1", Title: " Reminder from Wisp ", Body: "stretch", ConversationID: "c7"}); err != nil {
		t.Fatal(err)
	}
	want := sentNotice{"message:m1", "Reminder from Wisp", "stretch", map[string]any{"conversationId": "c7"}}
	if len(rt.sent) != 1 || rt.sent[0].id != want.id || rt.sent[0].title != want.title || rt.sent[0].body != want.body ||
		rt.sent[0].data["conversationId"] != "c7" {
		t.Fatalf("sent %+v, want %+v", rt.sent, want)
	}
	if got := s.TakeClicked(); got != "" {
		t.Fatalf("clicked before any click: %q", got)
	}

	rt.click(t, notificationClicked)
	wantCalls := []string{"init", "on-response", "send", "show", "unminimise", "emit " + notificationClickedEvent}
	if !slices.Equal(rt.calls, wantCalls) {
		t.Fatalf("calls %v, want %v", rt.calls, wantCalls)
	}
	for i, c := range rt.contexts {
		if c != "wails" {
			t.Fatalf("call %s got context %q, not the window's", rt.calls[i], c)
		}
	}
	if got := s.TakeClicked(); got != "c7" {
		t.Fatalf("TakeClicked = %q, want c7", got)
	}
	if got := s.TakeClicked(); got != "" {
		t.Fatalf("TakeClicked twice = %q", got)
	}
}

// Another action, or an error Wails reports, neither shows the window nor opens
// anything.
func TestSystemIgnoresOtherResponses(t *testing.T) {
	rt := &fakeSystemRuntime{}
	s := startedSystem(t, rt)
	if err := s.Notify(Notice{ID: "approval:a1", Title: "Approval needed", ConversationID: "c1"}); err != nil {
		t.Fatal(err)
	}
	rt.click(t, "snooze")
	rt.respond("", nil, errors.New("dbus gone"))
	if len(rt.calls) != 3 || s.TakeClicked() != "" {
		t.Fatalf("calls %v", rt.calls)
	}
}

// Notify says why it cannot notify: before the window starts, when the desktop has no
// notifications (no session bus), when sending fails, after the window closed; and it
// refuses a notice without a title.
func TestSystemNotifyErrors(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	before := newSystem(&fakeSystemRuntime{}, log)
	if err := before.Notify(Notice{Title: "x"}); err == nil {
		t.Fatal("notified before the window started")
	}

	noBus := &fakeSystemRuntime{initErr: errors.New("no session bus")}
	s := startedSystem(t, noBus)
	err := s.Notify(Notice{Title: "x"})
	if err == nil || !strings.Contains(err.Error(), "no session bus") {
		t.Fatalf("err = %v", err)
	}
	if slices.Contains(noBus.calls, "on-response") || slices.Contains(noBus.calls, "send") {
		t.Fatalf("calls %v", noBus.calls)
	}

	failing := &fakeSystemRuntime{sendErr: errors.New("no notification daemon")}
	if err := startedSystem(t, failing).Notify(Notice{Title: "x"}); err == nil {
		t.Fatal("a failed send reported as shown")
	}

	rt := &fakeSystemRuntime{}
	s = startedSystem(t, rt)
	if err := s.Notify(Notice{Title: "  ", Body: "b"}); err == nil {
		t.Fatal("a notice without a title")
	}
	s.stopped(context.Background())
	s.stopped(context.Background())
	if err := s.Notify(Notice{Title: "x"}); err == nil {
		t.Fatal("notified after the window closed")
	}
	if n := strings.Count(strings.Join(rt.calls, " "), "cleanup"); n != 1 {
		t.Fatalf("cleanup %d times: %v", n, rt.calls)
	}
	s = startedSystem(t, noBus)
	s.stopped(context.Background())
	if slices.Contains(noBus.calls, "cleanup") {
		t.Fatal("cleanup of notifications that never started")
	}

	// The window closed while the notifications connected: they are let go at once.
	late := &fakeSystemRuntime{}
	s = newSystem(late, log)
	s.started(context.Background())
	if err := s.Notify(Notice{Title: "x"}); err == nil {
		t.Fatal("notified before the notifications connected")
	}
	s.stopped(context.Background())
	s.connectNotifications(context.Background())
	if want := []string{"init", "on-response", "cleanup"}; !slices.Equal(late.calls, want) {
		t.Fatalf("calls %v, want %v", late.calls, want)
	}
	if err := s.Notify(Notice{Title: "x"}); err == nil {
		t.Fatal("notified after the window closed")
	}
}

// What the page sends is bounded.
func TestSystemNotifyClipsLongText(t *testing.T) {
	rt := &fakeSystemRuntime{}
	s := startedSystem(t, rt)
	if err := s.Notify(Notice{Title: strings.Repeat("t", 500), Body: strings.Repeat("é", 5000)}); err != nil {
		t.Fatal(err)
	}
	got := rt.sent[0]
	if utf8.RuneCountInString(got.title) != maxNoticeTitle || utf8.RuneCountInString(got.body) != maxNoticeBody || !utf8.ValidString(got.body) {
		t.Fatalf("title %d runes, body %d runes", utf8.RuneCountInString(got.title), utf8.RuneCountInString(got.body))
	}
}

// Links open in the system browser: http and https with a host, and mailto, written
// so Wails' own check lets them through; anything else is refused and nothing opens.
func TestSystemOpenURL(t *testing.T) {
	rt := &fakeSystemRuntime{}
	s := startedSystem(t, rt)
	open := map[string]string{
		"https://example.com/a?b=1#c":                    "https://example.com/a?b=1#c",
		"HTTP://Example.com":                             "http://example.com",
		"https://bücher.de/x?y=1":                        "https://xn--bcher-kva.de/x?y=1",
		"https://example.com/a%20b/c%2Fd":                "https://example.com/a%20b/c%2Fd",
		"https://en.wikipedia.org/wiki/Go_(language)":    "https://en.wikipedia.org/wiki/Go_%28language%29",
		"https://example.com/~me/x?q=a b&r=$1":           "https://example.com/%7Eme/x?q=a%20b&r=%241",
		"https://example.com:8443/caf\u00e9?x=\u00a0y":   "https://example.com:8443/caf%C3%A9?x=%C2%A0y",
		"mailto:someone@example.com":                     "mailto:someone@example.com",
		"mailto:a@example.com?subject=Hello there (hi)!": "mailto:a@example.com?subject=Hello%20there%20%28hi%29%21",
	}
	for raw, want := range open {
		rt.opened = nil
		if err := s.OpenURL(raw); err != nil {
			t.Errorf("OpenURL(%q): %v", raw, err)
			continue
		}
		if len(rt.opened) != 1 || rt.opened[0] != want {
			t.Errorf("OpenURL(%q) opened %q, want %q", raw, rt.opened, want)
		}
		if strings.ContainsAny(rt.opened[0], unsafeInURL) || strings.ContainsFunc(rt.opened[0], func(r rune) bool { return r >= utf8.RuneSelf }) {
			t.Errorf("OpenURL(%q) passed %q to Wails, which refuses it", raw, rt.opened[0])
		}
	}

	rt.opened = nil
	refused := []string{
		"javascript:alert(1)",
		"JavaScript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"file:///etc/passwd",
		"ftp://example.com/x",
		"wails://wails/index.html",
		"slack://open?team=x",
		"vbscript:msgbox",
		"/api/status",
		"#/c/x",
		"",
		"https://",
		"https:example.com",
		"http://user:pass@example.com/",
		"https://exa mple.com/",
		"http://[::1]:8080/",
		"https://example.com/\nX",
		"mailto:",
		"https://example.com/" + strings.Repeat("a", maxOpenURL),
	}
	for _, raw := range refused {
		if err := s.OpenURL(raw); err == nil {
			t.Errorf("OpenURL(%q) accepted", raw)
		}
	}
	if len(rt.opened) != 0 {
		t.Fatalf("opened %v", rt.opened)
	}

	if err := newSystem(rt, slog.New(slog.DiscardHandler)).OpenURL("https://example.com"); err == nil {
		t.Fatal("opened a link before the window started")
	}
}

// A notification's body is text: what a notification server would read as markup
// (a link, an image, an entity) is escaped.
func TestSystemNotifyEscapesMarkup(t *testing.T) {
	rt := &fakeSystemRuntime{}
	s := startedSystem(t, rt)
	body := `Run grep x <in.txt && rm y? <a href="https://x">click</a>`
	if err := s.Notify(Notice{ID: "approval:a1", Title: "Wisp asks <b>you</b>", Body: body, ConversationID: "c1"}); err != nil {
		t.Fatal(err)
	}
	want := `Run grep x &lt;in.txt &amp;&amp; rm y? &lt;a href="https://x"&gt;click&lt;/a&gt;`
	if len(rt.sent) != 1 || rt.sent[0].body != want || rt.sent[0].title != "Wisp asks <b>you</b>" {
		t.Fatalf("sent %+v, want body %q (the summary is never markup)", rt.sent, want)
	}
}
