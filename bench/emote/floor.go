package main

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/olahol/melody"

	"github.com/wispapp/wisp/bench/benchkit"
)

// floorServer is the physical floor: a bare net/http server in this process,
// on its own listener, with melody on /ws. POST /emote broadcasts the frame,
// encoded once, to every connected client and does nothing else.
type floorServer struct {
	url    string
	srv    *benchkit.Server
	m      *melody.Melody
	client *http.Client
	fan    *fan
}

// floorStatus is the frame a floor client is greeted with, as Wisp's are, so
// that a client knows it is subscribed.
var floorStatus = []byte(`{"type":"status"}`)

func startFloor(ctx context.Context, clients int) (*floorServer, error) {
	f := &floorServer{m: melody.New(), client: benchkit.NewHTTPClient()}
	f.m.HandleConnect(func(s *melody.Session) { _ = s.Write(floorStatus) })
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) { _ = f.m.HandleRequest(w, r) })
	mux.HandleFunc("POST /emote", f.emote)
	var err error
	if f.srv, err = benchkit.Serve(mux); err != nil {
		return nil, err
	}
	f.url = f.srv.URL
	wsURL := "ws://" + f.srv.Addr + "/ws"
	if f.fan, err = dialFan(ctx, func(int) string { return wsURL }, clients); err != nil {
		f.stop()
		return nil, fmt.Errorf("floor: %w", err)
	}
	return f, nil
}

// emote reads the request, broadcasts the frame and answers as Wisp does.
func (f *floorServer) emote(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	_ = f.m.Broadcast(emoteJSON)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = io.WriteString(w, `{"ok":true}`)
}

// play is the floor's trigger over HTTP, the same request Wisp gets.
func (f *floorServer) play(ctx context.Context) error {
	var out struct{ OK bool }
	return benchkit.PostJSON(ctx, f.client, f.url+"/emote", map[string]string{"emoteId": emoteID}, &out)
}

// broadcast is the floor's fan-out alone, called in this process.
func (f *floorServer) broadcast(context.Context) error { return f.m.Broadcast(emoteJSON) }

func (f *floorServer) side() *side { return &side{name: "floor", fan: f.fan, trigger: f.play} }

func (f *floorServer) directSide() *side {
	return &side{name: "floor, no HTTP", fan: f.fan, trigger: f.broadcast}
}

func (f *floorServer) stop() {
	if f.fan != nil {
		f.fan.close()
	}
	_ = f.m.Close()
	_ = f.srv.Stop()
}
