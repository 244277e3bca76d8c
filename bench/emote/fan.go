package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wispapp/wisp/bench/benchkit"
)

// emoteID is the emote every sample plays, and emoteJSON the frame every
// client must get for it (app/emotes.go, docs of the /ws emote event).
const emoteID = "wave"

var emoteJSON = []byte(`{"type":"emote","emoteId":"wave","glbPath":"/emotes/wave.glb","duration":2.5,"loop":false}`)

// frame is a /ws frame as a client decodes it: the emote fields, and the type
// of every other frame.
type frame struct {
	Type     string  `json:"type"`
	EmoteID  string  `json:"emoteId"`
	GLBPath  string  `json:"glbPath"`
	Duration float64 `json:"duration"`
	Loop     bool    `json:"loop"`
}

var wantFrame = func() frame {
	var f frame
	if err := json.Unmarshal(emoteJSON, &f); err != nil {
		panic(err)
	}
	return f
}()

// fan is the WebSocket clients of one server. Each is read continuously by
// its own goroutine, which reports every emote frame as an arrival.
type fan struct {
	conns    []*websocket.Conn
	arrivals chan arrival
	done     chan struct{}
	wg       sync.WaitGroup
}

// arrival is one client having read one emote frame.
type arrival struct {
	client int
	at     time.Time // when the whole frame had been read
	err    error     // the socket failed, or the frame is not the expected one
}

// dialFan connects n clients to url(i) and starts reading them once each has
// had its first status frame (from then on the server broadcasts to it).
func dialFan(ctx context.Context, url func(i int) string, n int) (*fan, error) {
	f := &fan{arrivals: make(chan arrival, 4*n), done: make(chan struct{})}
	for i := range n {
		c, err := benchkit.DialReady(ctx, url(i))
		if err != nil {
			f.close()
			return nil, fmt.Errorf("client %d: %w", i, err)
		}
		f.conns = append(f.conns, c)
		f.wg.Add(1)
		go f.read(i, c)
	}
	return f, nil
}

// read reads client i's socket until it fails or the fan is closed. The time
// is taken as soon as a frame has been read, before it is decoded.
func (f *fan) read(i int, c *websocket.Conn) {
	defer f.wg.Done()
	var buf bytes.Buffer
	for {
		_, r, err := c.NextReader()
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(r)
		}
		if err != nil {
			f.report(arrival{client: i, err: err})
			return
		}
		at := time.Now()
		var got frame
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			f.report(arrival{client: i, at: at, err: fmt.Errorf("frame is not JSON: %.200q", buf.Bytes())})
			continue
		}
		if got.Type != "emote" {
			continue // status and any other broadcast
		}
		a := arrival{client: i, at: at}
		if got != wantFrame {
			a.err = fmt.Errorf("emote frame %s, want %s", buf.Bytes(), emoteJSON)
		}
		if !f.report(a) {
			return
		}
	}
}

// report hands an arrival to collect; it gives up once the fan is closed.
func (f *fan) report(a arrival) bool {
	select {
	case f.arrivals <- a:
		return true
	case <-f.done:
		return false
	}
}

// collect waits until every client has reported the frame asked for at
// start, and returns each one's latency in ms, in order of arrival.
func (f *fan) collect(start time.Time, timeout time.Duration) ([]float64, error) {
	got := make([]bool, len(f.conns))
	lat := make([]float64, 0, len(f.conns))
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for len(lat) < len(f.conns) {
		select {
		case a := <-f.arrivals:
			switch {
			case a.err != nil:
				return nil, fmt.Errorf("client %d: %w", a.client, a.err)
			case got[a.client]:
				return nil, fmt.Errorf("client %d got the frame twice", a.client)
			case a.at.Before(start):
				return nil, fmt.Errorf("client %d got a frame before it was sent", a.client)
			}
			got[a.client] = true
			lat = append(lat, ms(a.at.Sub(start)))
		case <-timer.C:
			return nil, fmt.Errorf("%d of %d clients got the frame within %s", len(lat), len(f.conns), timeout)
		}
	}
	return lat, nil
}

// quiet checks that no client reports anything more within d.
func (f *fan) quiet(d time.Duration) error {
	select {
	case a := <-f.arrivals:
		if a.err != nil {
			return fmt.Errorf("client %d: %w", a.client, a.err)
		}
		return fmt.Errorf("client %d got a frame nobody sent", a.client)
	case <-time.After(d):
		return nil
	}
}

// close disconnects every client and waits for their readers.
func (f *fan) close() {
	close(f.done)
	for _, c := range f.conns {
		_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		_ = c.Close()
	}
	f.wg.Wait()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
