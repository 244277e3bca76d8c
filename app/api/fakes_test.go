package api

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/wispapp/wisp/app/settings"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/archive"
	"github.com/wispapp/wisp/app/proactive"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/emotes"
)

// Hand-written fakes of the services the API serves: each method calls its function
// field, and one left nil fails the request as a method the test did not expect.

var errNotFaked = errors.New("not faked")

type fakeHub struct {
	publish func(wire.Envelope) (wire.Envelope, error)
}

func (f fakeHub) Handle(http.ResponseWriter, *http.Request) error { return errNotFaked }
func (f fakeHub) Publish(env wire.Envelope) (wire.Envelope, error) {
	if f.publish == nil {
		return env, errNotFaked
	}
	return f.publish(env)
}

type fakeArchive struct {
	exportConversation func(ctx context.Context, id string, f archive.Format) (*archive.Export, error)
	exportAll          func(ctx context.Context, f archive.Format) (*archive.Export, error)
	importData         func(ctx context.Context, data []byte, src archive.Source) (wire.ImportResult, error)
	importZip          func(ctx context.Context, r io.Reader, max int64, src archive.Source) (wire.ImportResult, error)
}

func (f fakeArchive) ImportZipFrom(ctx context.Context, r io.Reader, max int64, src archive.Source) (wire.ImportResult, error) {
	if f.importZip == nil {
		return wire.ImportResult{}, errNotFaked
	}
	return f.importZip(ctx, r, max, src)
}

func (f fakeArchive) ExportConversation(ctx context.Context, id string, fm archive.Format) (*archive.Export, error) {
	if f.exportConversation == nil {
		return nil, errNotFaked
	}
	return f.exportConversation(ctx, id, fm)
}

func (f fakeArchive) ExportAll(ctx context.Context, fm archive.Format) (*archive.Export, error) {
	if f.exportAll == nil {
		return nil, errNotFaked
	}
	return f.exportAll(ctx, fm)
}

func (f fakeArchive) Import(ctx context.Context, data []byte, src archive.Source) (wire.ImportResult, error) {
	if f.importData == nil {
		return wire.ImportResult{}, errNotFaked
	}
	return f.importData(ctx, data, src)
}

type fakeApprovals struct {
	pending func(ctx context.Context) ([]wire.Approval, error)
	decide  func(ctx context.Context, id string, d approval.Decision) (wire.Approval, error)
	grants  func(ctx context.Context) ([]wire.Grant, error)
	revoke  func(ctx context.Context, id string) error
}

func (f fakeApprovals) Pending(ctx context.Context) ([]wire.Approval, error) {
	if f.pending == nil {
		return nil, errNotFaked
	}
	return f.pending(ctx)
}

func (f fakeApprovals) Decide(ctx context.Context, id string, d approval.Decision) (wire.Approval, error) {
	if f.decide == nil {
		return wire.Approval{}, errNotFaked
	}
	return f.decide(ctx, id, d)
}

func (f fakeApprovals) Grants(ctx context.Context) ([]wire.Grant, error) {
	if f.grants == nil {
		return nil, errNotFaked
	}
	return f.grants(ctx)
}

func (f fakeApprovals) RevokeGrant(ctx context.Context, id string) error {
	if f.revoke == nil {
		return errNotFaked
	}
	return f.revoke(ctx, id)
}

type fakeProactive struct {
	addReminder    func(ctx context.Context, in proactive.ReminderInput) (wire.Reminder, error)
	reminders      func(ctx context.Context) ([]wire.Reminder, error)
	deleteReminder func(ctx context.Context, id string) error
	autonomy       func(ctx context.Context) (wire.AutonomyState, error)
	routeEvent     func(ctx context.Context, env wire.Envelope) error
}

func (f fakeProactive) AddReminder(ctx context.Context, in proactive.ReminderInput) (wire.Reminder, error) {
	if f.addReminder == nil {
		return wire.Reminder{}, errNotFaked
	}
	return f.addReminder(ctx, in)
}

func (f fakeProactive) Reminders(ctx context.Context) ([]wire.Reminder, error) {
	if f.reminders == nil {
		return nil, errNotFaked
	}
	return f.reminders(ctx)
}

func (f fakeProactive) DeleteReminder(ctx context.Context, id string) error {
	if f.deleteReminder == nil {
		return errNotFaked
	}
	return f.deleteReminder(ctx, id)
}

func (f fakeProactive) Autonomy(ctx context.Context) (wire.AutonomyState, error) {
	if f.autonomy == nil {
		return wire.AutonomyState{}, errNotFaked
	}
	return f.autonomy(ctx)
}

func (f fakeProactive) RouteAgentEvent(ctx context.Context, env wire.Envelope) error {
	if f.routeEvent == nil {
		return nil // most agent events are not for it
	}
	return f.routeEvent(ctx, env)
}

type fakeSettings struct {
	config func(ctx context.Context) settings.ConfigView
	patch  func(ctx context.Context, patch map[string]any) (settings.ConfigView, error)
	shell  func(ctx context.Context, enabled bool) (settings.ShellView, error)
	// autonomy is nil for a switch that always works.
	autonomy func(ctx context.Context, enabled bool) error
}

func (f fakeSettings) Config(ctx context.Context) settings.ConfigView {
	if f.config == nil {
		return settings.ConfigView{}
	}
	return f.config(ctx)
}

func (f fakeSettings) PatchConfig(ctx context.Context, patch map[string]any) (settings.ConfigView, error) {
	if f.patch == nil {
		return settings.ConfigView{}, errNotFaked
	}
	return f.patch(ctx, patch)
}

func (f fakeSettings) SetShell(ctx context.Context, enabled bool) (settings.ShellView, error) {
	if f.shell == nil {
		return settings.ShellView{}, errNotFaked
	}
	return f.shell(ctx, enabled)
}

func (f fakeSettings) SetAutonomy(ctx context.Context, enabled bool) error {
	if f.autonomy == nil {
		return nil
	}
	return f.autonomy(ctx, enabled)
}

type fakeRestarter func(ctx context.Context) (RestartResult, error)

func (f fakeRestarter) Restart(ctx context.Context) (RestartResult, error) { return f(ctx) }

type fakeMCP struct {
	servers func(ctx context.Context) []wire.MCPServer
	restart func(ctx context.Context, name string) (wire.MCPServer, error)
	save    func(ctx context.Context, name string, e MCPEdit) (wire.MCPServer, bool, error)
	remove  func(ctx context.Context, name string) error
}

func (f fakeMCP) Servers(ctx context.Context) []wire.MCPServer {
	if f.servers == nil {
		return nil
	}
	return f.servers(ctx)
}

func (f fakeMCP) Restart(ctx context.Context, name string) (wire.MCPServer, error) {
	if f.restart == nil {
		return wire.MCPServer{}, errNotFaked
	}
	return f.restart(ctx, name)
}

func (f fakeMCP) Save(ctx context.Context, name string, e MCPEdit) (wire.MCPServer, bool, error) {
	if f.save == nil {
		return wire.MCPServer{}, false, errNotFaked
	}
	return f.save(ctx, name, e)
}

func (f fakeMCP) Remove(ctx context.Context, name string) error {
	if f.remove == nil {
		return errNotFaked
	}
	return f.remove(ctx, name)
}

type fakeProviders struct {
	info      func(ctx context.Context) ProviderInfo
	configure func(ctx context.Context, s ProviderSettings) (ProviderInfo, error)
}

func (f fakeProviders) Info(ctx context.Context) ProviderInfo {
	if f.info == nil {
		return ProviderInfo{}
	}
	return f.info(ctx)
}

func (f fakeProviders) Configure(ctx context.Context, s ProviderSettings) (ProviderInfo, error) {
	if f.configure == nil {
		return ProviderInfo{}, errNotFaked
	}
	return f.configure(ctx, s)
}

type fakeEmotes struct {
	list func(ctx context.Context) []emotes.Emote
	get  func(ctx context.Context, id string) (emotes.Emote, bool)
	open func(ctx context.Context, id string) (*emotes.Asset, error)
	play func(ctx context.Context, e emotes.Emote)
}

func (f fakeEmotes) List(ctx context.Context) []emotes.Emote {
	if f.list == nil {
		return nil
	}
	return f.list(ctx)
}

func (f fakeEmotes) Get(ctx context.Context, id string) (emotes.Emote, bool) {
	if f.get == nil {
		return emotes.Emote{}, false
	}
	return f.get(ctx, id)
}

func (f fakeEmotes) Open(ctx context.Context, id string) (*emotes.Asset, error) {
	if f.open == nil {
		return nil, emotes.ErrNotFound
	}
	return f.open(ctx, id)
}

func (f fakeEmotes) Play(ctx context.Context, e emotes.Emote) {
	if f.play != nil {
		f.play(ctx, e)
	}
}

// served is an API on fakes behind an httptest server: o's services, and a guard
// that wants token (none when "").
type served struct {
	t     *testing.T
	url   string
	token string
}

func serveAPI(t *testing.T, token string, o Options) *served {
	t.Helper()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	port, _ := strconv.Atoi(srv.URL[strings.LastIndex(srv.URL, ":")+1:])
	o.Guard = NewGuard(GuardOptions{Port: port, BindHost: "127.0.0.1", Tokens: []string{token}})
	if o.Hub == nil {
		o.Hub = fakeHub{}
	}
	o.Logger = slog.New(slog.DiscardHandler)
	handler = New(o).Handler()
	return &served{t: t, url: srv.URL, token: token}
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// call sends body (a string as it is, anything else as JSON) with the token, and
// header's fields (which may take it away again).
func (s *served) call(method, path string, body any, header map[string]string) answer {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = strings.NewReader(string(data))
	}
	r, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if rd != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		r.Header.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, header: resp.Header}
	data, _ := io.ReadAll(resp.Body)
	a.body = decodeMap(data)
	return a
}

type route struct{ method, path, body string }

// checkGuarded checks that each route refuses a request without the token (401) and
// one from a foreign origin with it (403).
func (s *served) checkGuarded(routes []route) {
	s.t.Helper()
	for _, r := range routes {
		var body any
		if r.body != "" {
			body = r.body
		}
		if got := s.call(r.method, r.path, body, map[string]string{"Authorization": ""}); got.status != 401 {
			s.t.Errorf("%s %s without the token: %d", r.method, r.path, got.status)
		}
		if got := s.call(r.method, r.path, body, map[string]string{"Origin": "http://evil.example"}); got.status != 403 {
			s.t.Errorf("%s %s from a foreign origin: %d", r.method, r.path, got.status)
		}
	}
}

// str is v as a string ("" when it is not one).
func str(v any) string { s, _ := v.(string); return s }

func decodeMap(data []byte) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	return m
}
