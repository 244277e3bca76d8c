package app

import (
	"errors"
	"log/slog"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/app/ws"
)

// fanout is the one wire.Events every producer publishes to (chat, reminders and
// autonomy, the terminal, the config watcher, emotes). It sends each frame where it
// goes: an envelope into the hub's numbered buffer (which the store journals),
// terminal output to the sockets of the run's client and to whoever follows runs,
// anything else to every client. It never blocks: the hub queues.
type fanout struct {
	hub *ws.Hub
	log *slog.Logger
	// terminal are the followers of terminal runs; set before anything is published.
	terminal []func(wire.TerminalOutput)
}

var _ wire.Events = (*fanout)(nil)

func (f *fanout) Publish(fr wire.Frame) {
	switch fr := fr.(type) {
	case wire.Envelope:
		if _, err := f.hub.Publish(fr); err != nil && !errors.Is(err, ws.ErrClosed) {
			f.log.Warn("envelope not published", "type", fr.Type, "stream", fr.Stream, "err", err)
		}
	case wire.TerminalOutput:
		f.hub.Send(fr, terminalViewers(fr.Owner))
		for _, follow := range f.terminal {
			follow(fr)
		}
	default:
		f.hub.Broadcast(fr)
	}
}

// terminalViewers matches the sockets that see owner's runs: the client that started
// them, or everyone for the agent's runs (owner "").
func terminalViewers(owner string) func(ws.Client) bool {
	return func(c ws.Client) bool { return owner == "" || c.ClientID == owner }
}
