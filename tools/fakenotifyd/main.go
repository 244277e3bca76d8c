// Command fakenotifyd is a desktop notification server for the desktop smoke test
// (scripts/desktop-smoke.sh): it owns org.freedesktop.Notifications on the session
// bus, prints each notification it is asked to show as one JSON line ("notify {…}"),
// and, like a user clicking it, answers each with the ActionInvoked signal of its
// default action. It imports nothing of Wisp.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/godbus/dbus/v5"
)

const (
	name  = "org.freedesktop.Notifications"
	iface = "org.freedesktop.Notifications"
	path  = dbus.ObjectPath("/org/freedesktop/Notifications")
)

// shown is a notification as it is printed.
type shown struct {
	ID      uint32            `json:"id"`
	App     string            `json:"app"`
	Summary string            `json:"summary"`
	Body    string            `json:"body"`
	Actions []string          `json:"actions"`
	Hints   map[string]string `json:"hints"`
}

type server struct {
	conn *dbus.Conn
	mu   sync.Mutex
	last uint32
}

// Notify shows nothing: it prints the notification and clicks it.
func (s *server) Notify(app string, _ uint32, _, summary, body string, actions []string,
	hints map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	s.last++
	id := s.last
	s.mu.Unlock()
	n := shown{ID: id, App: app, Summary: summary, Body: body, Actions: actions, Hints: map[string]string{}}
	for k, v := range hints {
		if str, ok := v.Value().(string); ok {
			n.Hints[k] = str
		}
	}
	line, err := json.Marshal(n)
	if err != nil {
		return 0, dbus.MakeFailedError(err)
	}
	fmt.Printf("notify %s\n", line)
	// The click comes after the reply, as a real server's would.
	go func() {
		if err := s.conn.Emit(path, iface+".ActionInvoked", id, "default"); err != nil {
			fmt.Fprintln(os.Stderr, "fakenotifyd: click:", err)
			return
		}
		fmt.Printf("clicked %d\n", id)
	}()
	return id, nil
}

// CloseNotification has nothing to close.
func (s *server) CloseNotification(uint32) *dbus.Error { return nil }

// GetCapabilities says clicks (actions) are supported.
func (s *server) GetCapabilities() ([]string, *dbus.Error) { return []string{"actions", "body"}, nil }

// GetServerInformation names this server.
func (s *server) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fakenotifyd", "wisp", "1", "1.2", nil
}

func main() {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakenotifyd:", err)
		os.Exit(1)
	}
	if err := conn.Export(&server{conn: conn}, path, iface); err != nil {
		fmt.Fprintln(os.Stderr, "fakenotifyd:", err)
		os.Exit(1)
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fmt.Fprintln(os.Stderr, "fakenotifyd: cannot own", name, reply, err)
		os.Exit(1)
	}
	fmt.Println("fakenotifyd ready")
	select {}
}
