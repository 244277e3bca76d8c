package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/bench/benchkit"
)

// frame is a /ws frame as the client decodes it: its type and the fields of the
// frames a reminder causes (message is a proactive message or a display row,
// depending on the type).
type frame struct {
	Type           string          `json:"type"`
	ConversationID string          `json:"conversationId"`
	Message        json.RawMessage `json:"message"`
	Reminder       *reminder       `json:"reminder"`
	Conversation   *struct {
		ID     string `json:"id"`
		Unread bool   `json:"unread"`
	} `json:"conversation"`
}

// reminder is a reminder as the API and the reminder-updated frame show it.
type reminder struct {
	ID             string  `json:"id"`
	ConversationID *string `json:"conversationId"`
	Text           string  `json:"text"`
	Status         string  `json:"status"`
	Late           bool    `json:"late"`
	MessageID      string  `json:"messageId"`
}

// proactiveMessage is the message of a proactive-message frame.
type proactiveMessage struct {
	ID         string `json:"id"`
	Role       string `json:"role"`
	Text       string `json:"text"`
	Timestamp  int64  `json:"timestamp"`
	Source     string `json:"source"`
	ReminderID string `json:"reminderId"`
	Late       *bool  `json:"late"`
}

// displayRow is the message of a display-message-saved frame.
type displayRow struct {
	ConversationID string `json:"conversationId"`
	MessageType    string `json:"messageType"`
	ContentType    string `json:"contentType"`
	Content        struct {
		Text string `json:"text"`
	} `json:"content"`
}

// arrival is one frame the client has read.
type arrival struct {
	at  time.Time // when the whole frame had been read, before decoding
	raw []byte
	f   frame
	err error // the socket failed, or the frame is not JSON
}

// reader reads one client's socket continuously and hands every frame but
// status to the sample waiting for it.
type reader struct {
	arrivals chan arrival
	done     chan struct{}
	wg       sync.WaitGroup
	once     sync.Once
}

func newReader(c *websocket.Conn) *reader {
	r := &reader{arrivals: make(chan arrival, 64), done: make(chan struct{})}
	r.wg.Add(1)
	go r.read(c)
	return r
}

// read reads the socket until it fails or the reader is closed. The time is
// taken as soon as a frame has been read, before it is decoded.
func (r *reader) read(c *websocket.Conn) {
	defer r.wg.Done()
	err := benchkit.ReadFrames(c, func(at time.Time, raw []byte) bool {
		a := arrival{at: at, raw: slices.Clone(raw)}
		if err := json.Unmarshal(a.raw, &a.f); err != nil {
			a.err = fmt.Errorf("frame is not JSON: %.200q", a.raw)
		} else if a.f.Type == "status" {
			return true // the periodic status
		}
		return r.report(a)
	})
	if err != nil {
		r.report(arrival{err: err})
	}
}

// report hands an arrival to the sample; it gives up once the reader is closed.
func (r *reader) report(a arrival) bool {
	select {
	case r.arrivals <- a:
		return true
	case <-r.done:
		return false
	}
}

// next waits for the next frame, for at most collectTimeout.
func (r *reader) next(what string) (arrival, error) {
	timer := time.NewTimer(collectTimeout)
	defer timer.Stop()
	select {
	case a := <-r.arrivals:
		if a.err != nil {
			return a, a.err
		}
		return a, nil
	case <-timer.C:
		return arrival{}, fmt.Errorf("no %s frame within %s", what, collectTimeout)
	}
}

// quiet checks that nothing more arrives within d.
func (r *reader) quiet(d time.Duration) error {
	select {
	case a := <-r.arrivals:
		if a.err != nil {
			return a.err
		}
		return fmt.Errorf("a frame nothing caused: %.200q", a.raw)
	case <-time.After(d):
		return nil
	}
}

// close stops the reading goroutine: it marks the reader closed, runs unblock
// (which makes the goroutine's read fail) and waits for it.
func (r *reader) close(unblock func()) {
	r.once.Do(func() {
		close(r.done)
		unblock()
		r.wg.Wait()
	})
}

// closeConn says goodbye on a client's socket and closes it.
func closeConn(c *websocket.Conn) {
	_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.Close()
}
