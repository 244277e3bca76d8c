package ws

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Kinds of buffered envelopes (seed 004). Only these are numbered, kept and replayed.
const (
	KindAgent     = "agent_event"
	KindHeartbeat = "heartbeat_event"
	KindTraining  = "training_event"
)

// Envelope is a buffered stream event (seed 004 StreamEventEnvelope).
type Envelope struct {
	Type       string          `json:"type"`
	Version    int             `json:"version"`
	EventID    string          `json:"eventId"`
	TS         int64           `json:"ts"`
	RunID      string          `json:"runId,omitempty"`
	Seq        *int64          `json:"seq,omitempty"`
	Stream     string          `json:"stream,omitempty"`
	SessionKey string          `json:"sessionKey,omitempty"`
	AgentID    string          `json:"agentId,omitempty"`
	RoomID     string          `json:"roomId,omitempty"`
	Payload    json.RawMessage `json:"payload"`
}

func isBufferedKind(k string) bool { return k == KindAgent || k == KindHeartbeat || k == KindTraining }

// FormatEventID renders an envelope number as the wire's "evt-N".
func FormatEventID(n int64) string { return "evt-" + strconv.FormatInt(n, 10) }

// ParseEventID reads "evt-N" (N ≥ 0).
func ParseEventID(s string) (int64, error) {
	num, ok := strings.CutPrefix(s, "evt-")
	if !ok {
		return 0, fmt.Errorf("event id %q is not of the form evt-N", s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != num {
		return 0, fmt.Errorf("event id %q is not of the form evt-N", s)
	}
	return n, nil
}

// entry is an encoded envelope in the replay ring.
type entry struct {
	id   int64
	data []byte
}

// ring keeps the newest cap entries in ascending id order.
type ring struct {
	buf   []entry
	start int // index of the oldest entry
	n     int
}

func newRing(capacity int) *ring { return &ring{buf: make([]entry, capacity)} }

func (r *ring) push(e entry) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = e
		r.n++
		return
	}
	r.buf[r.start] = e
	r.start = (r.start + 1) % len(r.buf)
}

func (r *ring) at(i int) entry { return r.buf[(r.start+i)%len(r.buf)] }

func (r *ring) last() int64 {
	if r.n == 0 {
		return 0
	}
	return r.at(r.n - 1).id
}

// tail returns the newest n entries, oldest first.
func (r *ring) tail(n int) []entry {
	n = min(n, r.n)
	out := make([]entry, n)
	for i := range n {
		out[i] = r.at(r.n - n + i)
	}
	return out
}

// after returns the entries with an id greater than id, oldest first.
func (r *ring) after(id int64) []entry {
	first := sort.Search(r.n, func(i int) bool { return r.at(i).id > id })
	return r.tail(r.n - first)
}
