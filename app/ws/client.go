package ws

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/olahol/melody"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Client is what the rest of Wisp may know about a connection.
type Client struct {
	ClientID           string // from ?clientId=, may be empty
	ActiveConversation string // from the last active-conversation frame, may be empty
}

// client is a connection's state. Fields other than dropped are guarded by Hub.mu.
type client struct {
	session            *melody.Session
	clientID           string
	active             bool  // authenticated and caught up: receives broadcasts
	after              int64 // replay starts after this event (when hasAfter)
	hasAfter           bool
	authTimer          *time.Timer
	activeConversation string
	activeSince        time.Time
	dropped            atomic.Bool
	queued             atomic.Int64 // bytes handed to melody and not yet written
	frames             atomic.Int64 // frames handed to melody and not yet written
	remote             string
}

// write queues a text frame, counting it until melody has written it.
func (c *client) write(data []byte) error {
	c.queued.Add(int64(len(data)))
	c.frames.Add(1)
	return c.session.Write(data)
}

func (c *client) info() Client {
	return Client{ClientID: c.clientID, ActiveConversation: c.activeConversation}
}

const clientKey = "wisp.client"

// Handle upgrades a /ws request. Errors before the upgrade are faults (invalid,
// unauthenticated, unavailable); once upgraded, problems are reported on the socket.
func (h *Hub) Handle(w http.ResponseWriter, r *http.Request) error {
	if !websocket.IsWebSocketUpgrade(r) {
		return fault.Invalid.Errorf("this endpoint only accepts WebSocket upgrades")
	}
	c, err := h.handshake(r)
	if err != nil {
		return err
	}
	h.mu.Lock()
	closed := h.closed
	if !closed {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if closed {
		return fault.Unavailable.Errorf("server is shutting down")
	}
	defer h.wg.Done()
	if err := h.m.HandleRequestWithKeys(w, r, map[string]any{clientKey: c}); err != nil {
		h.log.Debug("ws upgrade failed", "err", err)
	}
	return nil
}

// handshake validates the query and any credentials of the upgrade request.
func (h *Hub) handshake(r *http.Request) (*client, error) {
	q := r.URL.Query()
	c := &client{clientID: q.Get("clientId"), remote: r.RemoteAddr}
	if c.clientID != "" && !wire.ValidClientID(c.clientID) {
		return nil, fault.Invalid.Errorf("clientId must match %s", wire.ClientIDPattern)
	}
	if last := q.Get("lastEventId"); last != "" {
		n, err := wire.ParseEventID(last)
		if err != nil {
			return nil, fault.Invalid.Errorf("lastEventId: %v", err)
		}
		c.after, c.hasAfter = n, true
	}
	authed, err := h.credentials(r)
	if err != nil {
		return nil, err
	}
	c.active = authed // activation (status + replay) happens in onConnect
	return c, nil
}

// credentials reports whether the upgrade itself carries a valid token.
func (h *Hub) credentials(r *http.Request) (bool, error) {
	required := h.opts.Gate.Required()
	if r.URL.Query().Has("token") {
		if !h.opts.AllowQueryToken {
			return false, fault.Unauthenticated.Errorf(
				"tokens in the query string are disabled: send an auth frame or an Authorization header")
		}
		if required && !h.opts.Gate.Authorized(r.URL.Query().Get("token")) {
			return false, fault.Unauthenticated.Errorf("invalid token")
		}
		return true, nil
	}
	if !required {
		return true, nil
	}
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return false, nil // must send an auth frame first
	}
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || !h.opts.Gate.Authorized(token) {
		return false, fault.Unauthenticated.Errorf("invalid token")
	}
	return true, nil
}

func clientOf(s *melody.Session) *client {
	v, _ := s.Get(clientKey)
	c, _ := v.(*client)
	return c
}

func (h *Hub) onConnect(s *melody.Session) {
	c := clientOf(s)
	c.session = s
	status := h.opts.Status(false)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[s] = c
	if c.active {
		h.activateLocked(c, status)
		return
	}
	c.authTimer = time.AfterFunc(h.opts.AuthTimeout, func() {
		h.mu.Lock()
		late := !c.active
		h.mu.Unlock()
		if late {
			h.closePolicy(s, "authentication timed out")
		}
	})
}

// activateLocked sends the initial status and the replay, then lets broadcasts in.
// Holding h.mu makes the snapshot atomic with the subscription: no envelope is
// missed or sent twice.
func (h *Hub) activateLocked(c *client, status wire.StatusFrame) {
	c.active = true
	if data, err := wire.Encode(status); err == nil {
		_ = c.write(data)
	}
	var replay []entry
	switch {
	case c.hasAfter && h.ring.covers(c.after):
		replay = h.ring.after(c.after)
	case c.hasAfter:
		// Events after its id are gone from the window (or the id is not from this
		// history): say so, so it reloads what it shows, then the usual replay.
		if data, err := wire.Encode(wire.NewReplayTruncated(wire.FormatEventID(c.after), wire.FormatEventID(h.ring.first()))); err == nil {
			_ = c.write(data)
		}
		replay = h.ring.tail(h.opts.Replay)
	default: // first connection
		replay = h.ring.tail(h.opts.Replay)
	}
	for _, e := range replay {
		_ = c.write(e.data)
	}
}

// onMessage decodes a client frame into the catalog's struct of its type
// (wire.DecodeClientFrame) and acts on it.
func (h *Hub) onMessage(s *melody.Session, data []byte) {
	c := clientOf(s)
	frame, err := wire.DecodeClientFrame(data)
	h.mu.Lock()
	active := c.active
	h.mu.Unlock()
	if !active {
		auth, _ := frame.(wire.Auth)
		h.authenticate(s, c, auth, err)
		return
	}
	switch f := frame.(type) {
	case nil:
		h.reply(s, wire.NewSocketError(err.Error()))
	case wire.Auth:
		h.reply(s, wire.NewAuthOK())
	case wire.Ping:
		h.reply(s, wire.NewPong())
	case wire.ActiveConversation:
		h.setActiveConversation(c, f.ConversationID)
	default:
		if errors.Is(err, wire.ErrUnknownFrame) {
			h.reply(s, wire.NewSocketError("unknown message type: "+truncate(f.FrameType(), 64)))
			return
		}
		if err != nil {
			h.reply(s, wire.NewSocketError(err.Error()))
			return
		}
		h.mu.Lock()
		handle, ok := h.handlers[f.FrameType()]
		info := c.info()
		h.mu.Unlock()
		if !ok {
			h.reply(s, wire.NewSocketError("unknown message type: "+truncate(f.FrameType(), 64)))
			return
		}
		if err := handle(info, f); err != nil {
			h.reply(s, wire.NewSocketError(err.Error()))
		}
	}
}

func (h *Hub) onBinary(s *melody.Session, _ []byte) {
	if c := clientOf(s); c != nil {
		h.mu.Lock()
		active := c.active
		h.mu.Unlock()
		if !active {
			h.closePolicy(s, "authentication required")
			return
		}
	}
	h.reply(s, wire.NewSocketError("binary frames are not supported"))
}

// authenticate handles the first frame of a connection that still needs a token.
func (h *Hub) authenticate(s *melody.Session, c *client, msg wire.Auth, decodeErr error) {
	if decodeErr != nil || msg.Type != wire.TypeAuth {
		h.closePolicy(s, "authentication required: the first frame must be {\"type\":\"auth\",\"token\":...}")
		return
	}
	if !h.opts.Gate.Authorized(msg.Token) {
		h.closePolicy(s, "invalid token")
		return
	}
	status := h.opts.Status(false)
	h.mu.Lock()
	defer h.mu.Unlock()
	if c.authTimer != nil {
		c.authTimer.Stop()
	}
	if data, err := wire.Encode(wire.NewAuthOK()); err == nil {
		_ = c.write(data)
	}
	h.activateLocked(c, status)
}

func (h *Hub) setActiveConversation(c *client, raw json.RawMessage) {
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		id = "" // a non-string clears it (seed 004)
	}
	id = truncate(id, 256)
	h.mu.Lock()
	c.activeConversation = id
	c.activeSince = time.Now()
	info := c.info()
	onActive := h.onActive
	h.mu.Unlock()
	if id != "" && onActive != nil {
		onActive(info, id)
	}
}

func (h *Hub) reply(s *melody.Session, f wire.Frame) {
	data, err := wire.Encode(f)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := clientOf(s); c != nil {
		_ = c.write(data)
		return
	}
	_ = s.Write(data)
}

func (h *Hub) onDisconnect(s *melody.Session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := h.clients[s]; c != nil && c.authTimer != nil {
		c.authTimer.Stop()
	}
	delete(h.clients, s)
	h.signalGoneLocked()
	h.progressed()
}

func (h *Hub) onError(s *melody.Session, err error) {
	var ne net.Error
	switch {
	case errors.Is(err, melody.ErrMessageBufferFull):
		h.dropLagging(s, "its queue is full")
	case errors.As(err, &ne) && ne.Timeout():
		h.dropLagging(s, "a write to it timed out") // it stopped reading
	default:
		h.log.Debug("ws connection error", "err", err)
	}
}

// dropLagging closes a client that fell behind with 1013, saying why and how much it
// missed. It may run inside a send while h.mu is held, so the close happens on its
// own goroutine. A client that stopped reading altogether may not take even the close
// frame; it learns what it missed when it reconnects (replay-truncated).
func (h *Hub) dropLagging(s *melody.Session, why string) {
	c := clientOf(s)
	if c == nil || !c.dropped.CompareAndSwap(false, true) {
		return
	}
	h.log.Info("ws client fell behind; disconnected with 1013", "clientId", c.clientID, "remote", c.remote,
		"why", why, "undeliveredFrames", c.frames.Load(), "undeliveredBytes", c.queued.Load())
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		closeConn(s, websocketClose(1013, "client too slow: reconnect to resume"))
	}()
}

// closePolicy closes an unauthenticated client with 1008 through its (empty) queue.
func (h *Hub) closePolicy(s *melody.Session, reason string) {
	_ = s.CloseWithMsg(websocketClose(1008, reason))
}

func websocketClose(code int, reason string) []byte {
	return websocket.FormatCloseMessage(code, truncate(reason, 120))
}

// closeConn sends a close frame straight on the connection (gorilla allows a control
// write concurrent with the write pump) and closes it, ending the session's goroutines.
func closeConn(s *melody.Session, closeFrame []byte) {
	conn := s.WebsocketConnection()
	_ = conn.WriteControl(websocket.CloseMessage, closeFrame, time.Now().Add(time.Second))
	_ = conn.Close()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
