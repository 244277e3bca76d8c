// Package ws owns the /ws hub: the WebSocket handshake and its authentication, the
// connected clients and their bounded send queues, the numbered envelope buffer with
// replay on connect, periodic status, and broadcasts (seed 004).
//
// It is built on melody. It imports nothing of Wisp but the frame catalog (app/wire):
// persistence comes in through the Journal interface and status through a function,
// and it sends only catalog frames.
package ws

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/olahol/melody"

	"github.com/wispapp/wisp/app/wire"
)

// Options configure a Hub. Zero values take the documented defaults.
type Options struct {
	// Gate decides who may connect. Required.
	Gate Gate
	// AllowQueryToken accepts ?token= on the upgrade (WISP_ALLOW_WS_QUERY_TOKEN=1).
	AllowQueryToken bool
	// Status builds the status frame; periodic is true for the 5-second broadcast,
	// which includes the pendingRestart fields.
	Status func(periodic bool) wire.StatusFrame
	// Journal persists envelopes so replay survives a restart. Optional.
	Journal Journal
	Logger  *slog.Logger

	Replay       int           // envelopes replayed on connect; default 120
	BufferSize   int           // envelopes kept; default 1500
	QueueSize    int           // frames queued per client before it is dropped; default 2048
	QueueBytes   int64         // bytes queued per client before it is dropped; default 16 MiB
	StatusEvery  time.Duration // default 5 s
	AuthTimeout  time.Duration // how long a client may stay unauthenticated; default 10 s
	MaxFrameSize int64         // largest frame a client may send; default 64 KiB
}

func (o *Options) setDefaults() {
	o.Replay = cmp.Or(o.Replay, 120)
	o.BufferSize = cmp.Or(o.BufferSize, 1500)
	// A replay after ?lastEventId may be the whole buffer: it must fit in the queue.
	o.QueueSize = cmp.Or(o.QueueSize, o.BufferSize+548)
	o.QueueBytes = cmp.Or(o.QueueBytes, 16<<20)
	o.StatusEvery = cmp.Or(o.StatusEvery, 5*time.Second)
	o.AuthTimeout = cmp.Or(o.AuthTimeout, 10*time.Second)
	o.MaxFrameSize = cmp.Or(o.MaxFrameSize, 64<<10)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Status == nil {
		o.Status = func(bool) wire.StatusFrame { return wire.NewStatus(wire.Status{}) }
	}
}

// Gate decides who may connect. Its answers may change while the hub runs (a
// restart changes the rules).
type Gate interface {
	// Required reports whether a token is needed at all.
	Required() bool
	// Authorized reports whether a token is acceptable.
	Authorized(token string) bool
	// OriginAllowed decides whether an upgrade's Origin header is acceptable.
	OriginAllowed(r *http.Request) bool
}

// FrameHandler handles one client frame, decoded into the catalog's struct of its
// type (wire.TerminalInput, wire.TerminalResize). It runs on the
// connection's read loop, so it must return quickly; an error is sent back to that
// client as {"type":"error","message":…}.
type FrameHandler func(c Client, frame wire.Frame) error

// ErrClosed is returned by Publish after Stop.
var ErrClosed = errors.New("ws hub is closed")

// Hub is the /ws endpoint and its clients.
type Hub struct {
	opts Options
	log  *slog.Logger
	m    *melody.Melody

	mu         sync.Mutex // orders publishing, replay and activation
	clients    map[*melody.Session]*client
	handlers   map[string]FrameHandler               // client frames of other types, by type
	onActive   func(c Client, conversationID string) // hears each opened conversation
	ring       *ring
	nextID     int64
	closed     bool
	gone       chan struct{} // closed when the last client has gone after Stop
	goneClosed bool

	journal *journalWriter
	stop    chan struct{}
	wg      sync.WaitGroup // connections, closers and background loops

	progress progress // wakes producers waiting for a client's queue to shrink
}

// New builds a hub. Call Start before serving and Stop when done.
func New(opts Options) *Hub {
	opts.setDefaults()
	h := &Hub{
		opts:     opts,
		log:      opts.Logger,
		clients:  map[*melody.Session]*client{},
		handlers: map[string]FrameHandler{},
		ring:     newRing(opts.BufferSize),
		stop:     make(chan struct{}),
	}
	h.m = melody.New()
	h.m.Config.MaxMessageSize = opts.MaxFrameSize
	h.m.Config.MessageBufferSize = opts.QueueSize
	// melody pings every 54 s and gives up 60 s after the last pong: a client busy for
	// 6 s at the wrong moment (not a browser, which answers pings by itself) would be
	// cut off. Ping every 30 s and allow the same 60 s.
	h.m.Config.PingPeriod = 30 * time.Second
	h.m.Config.PongWait = 60 * time.Second
	h.m.Upgrader.CheckOrigin = opts.Gate.OriginAllowed
	h.m.HandleConnect(h.onConnect)
	h.m.HandleMessage(h.onMessage)
	h.m.HandleMessageBinary(h.onBinary)
	h.m.HandleDisconnect(h.onDisconnect)
	h.m.HandleSentMessage(func(s *melody.Session, msg []byte) {
		if c := clientOf(s); c != nil {
			c.queued.Add(-int64(len(msg)))
			c.frames.Add(-1)
		}
		h.progressed()
	})
	h.m.HandleError(h.onError)
	return h
}

// HandleFrame routes client frames of a type (e.g. terminal-input) to fn. Call it before
// Start.
func (h *Hub) HandleFrame(frameType string, fn FrameHandler) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.handlers[frameType] = fn
}

// OnActiveConversation makes fn hear every conversation a client opens (the id of an
// active-conversation frame, never empty). It runs on the connection's read loop, so
// it must return quickly. Call it before Start.
func (h *Hub) OnActiveConversation(fn func(c Client, conversationID string)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onActive = fn
}

// Start loads the journal into the replay buffer and starts the periodic status.
func (h *Hub) Start(ctx context.Context) error {
	if h.opts.Journal != nil {
		records, err := h.opts.Journal.Load(ctx, h.opts.BufferSize)
		if err != nil {
			return err
		}
		for _, r := range records {
			h.ring.push(entry{id: r.ID, data: r.Data})
		}
		h.nextID = h.ring.last()
		h.journal = startJournal(h.opts.Journal, h.opts.BufferSize, h.log)
	}
	h.wg.Add(1)
	go h.statusLoop()
	return nil
}

// stopFlush is how long Stop lets clients receive what is already queued for them.
const stopFlush = time.Second

// Stop closes every connection with 1001 after what is queued for it (a client that
// does not take it within a second is cut off), waits for their goroutines and
// flushes the journal.
func (h *Hub) Stop() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	h.gone = make(chan struct{})
	sessions := h.sessionsLocked()
	h.signalGoneLocked()
	h.mu.Unlock()
	close(h.stop)
	for _, s := range sessions {
		_ = s.CloseWithMsg(websocketClose(1001, "server shutting down"))
	}
	select {
	case <-h.gone:
	case <-time.After(stopFlush):
		h.mu.Lock()
		late := h.sessionsLocked()
		h.mu.Unlock()
		for _, s := range late {
			closeConn(s, websocketClose(1001, "server shutting down"))
		}
	}
	_ = h.m.Close()
	h.wg.Wait()
	if h.journal != nil {
		h.journal.close()
	}
}

// Disconnect closes every connection with code and reason; the hub stays open and the
// clients may come back (1012 after a restart that changed who may connect).
func (h *Hub) Disconnect(code int, reason string) {
	h.mu.Lock()
	sessions := h.sessionsLocked()
	h.mu.Unlock()
	for _, s := range sessions {
		_ = s.CloseWithMsg(websocketClose(code, reason))
	}
}

// signalGoneLocked closes h.gone once no client is left after Stop.
func (h *Hub) signalGoneLocked() {
	if h.closed && len(h.clients) == 0 && !h.goneClosed {
		h.goneClosed = true
		close(h.gone)
	}
}

func (h *Hub) sessionsLocked() []*melody.Session {
	out := make([]*melody.Session, 0, len(h.clients))
	for s := range h.clients {
		out = append(out, s)
	}
	return out
}

func (h *Hub) statusLoop() {
	defer h.wg.Done()
	t := time.NewTicker(h.opts.StatusEvery)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
			h.Broadcast(h.opts.Status(true))
		}
	}
}

// Publish numbers a buffered envelope, keeps it for replay, persists it and sends it
// to every active client. It never blocks on a client.
func (h *Hub) Publish(env wire.Envelope) (wire.Envelope, error) {
	if !wire.IsBuffered(env.Type) {
		return env, errors.New("publish: type must be agent_event, heartbeat_event or training_event")
	}
	if len(env.Payload) == 0 {
		env.Payload = json.RawMessage("{}")
	}
	env.Version = 1
	if env.TS == 0 {
		env.TS = time.Now().UnixMilli()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return env, ErrClosed
	}
	h.nextID++
	env.EventID = wire.FormatEventID(h.nextID)
	data, err := json.Marshal(env)
	if err != nil {
		h.nextID--
		return env, err
	}
	h.ring.push(entry{id: h.nextID, data: data})
	if h.journal != nil {
		h.journal.add(Record{ID: h.nextID, Type: env.Type, TS: env.TS, Data: data})
	}
	h.sendLocked(data, nil)
	return env, nil
}

// Broadcast sends an unbuffered frame (status, restart-required, emote, ...) to every
// active client.
func (h *Hub) Broadcast(f wire.Frame) {
	h.Send(f, nil)
}

// Send sends an unbuffered frame to the active clients that match, and reports how
// many it was queued for. A nil match means everyone.
func (h *Hub) Send(f wire.Frame, match func(Client) bool) int {
	data, err := wire.Encode(f)
	if err != nil {
		h.log.Error("encode ws frame", "type", f.FrameType(), "err", err)
		return 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0
	}
	return h.sendLocked(data, match)
}

func (h *Hub) sendLocked(data []byte, match func(Client) bool) int {
	sent := 0
	for s, c := range h.clients {
		if !c.active || c.dropped.Load() || (match != nil && !match(c.info())) {
			continue
		}
		if c.queued.Load()+int64(len(data)) > h.opts.QueueBytes {
			h.dropLagging(s, "its queue holds too many bytes") // megabytes it has not taken yet
			continue
		}
		_ = c.write(data) // never blocks: a full queue drops the client via onError
		sent++
	}
	return sent
}

// Backlog is the most bytes any matching active client still has to receive (nil
// matches everyone). Producers that can pause, like a terminal, use it to keep pace
// with their viewers instead of having them dropped.
func (h *Hub) Backlog(match func(Client) bool) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var most int64
	for _, c := range h.clients {
		if c.active && !c.dropped.Load() && (match == nil || match(c.info())) {
			most = max(most, c.queued.Load())
		}
	}
	return most
}

// ActiveConversation returns the conversation most recently made active by any client.
func (h *Hub) ActiveConversation() (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var best *client
	for _, c := range h.clients {
		if c.activeConversation != "" && (best == nil || c.activeSince.After(best.activeSince)) {
			best = c
		}
	}
	if best == nil {
		return "", false
	}
	return best.activeConversation, true
}

// Showing reports whether an active client has the conversation open.
func (h *Hub) Showing(conversationID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.clients {
		if c.active && c.activeConversation == conversationID {
			return true
		}
	}
	return false
}

// Clients returns a snapshot of the active clients.
func (h *Hub) Clients() []Client {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Client
	for _, c := range h.clients {
		if c.active {
			out = append(out, c.info())
		}
	}
	return out
}
