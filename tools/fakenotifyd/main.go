// Command fakenotifyd is a desktop notification server for the desktop smoke test
// (scripts/desktop-smoke.sh): it owns org.freedesktop.Notifications on the session
// bus, prints each notification it is asked to show as one JSON line ("notify {…}"),
// and, on SIGUSR1, like a user clicking it, answers the last one with the
// ActionInvoked signal of its default action. The click waits for the signal because
// a client knows a notification only once its Notify call has returned, which the
// server cannot see: the smoke test sends it when Wisp says the notification is
// shown. It imports nothing of Wisp.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

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
	return id, nil
}

// click answers the last notification as a click on it.
func (s *server) click() {
	s.mu.Lock()
	id := s.last
	s.mu.Unlock()
	if id == 0 {
		fmt.Fprintln(os.Stderr, "fakenotifyd: nothing to click")
		return
	}
	if err := s.conn.Emit(path, iface+".ActionInvoked", id, "default"); err != nil {
		fmt.Fprintln(os.Stderr, "fakenotifyd: click:", err)
		return
	}
	fmt.Printf("clicked %d\n", id)
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
	srv := &server{conn: conn}
	if err := conn.Export(srv, path, iface); err != nil {
		fmt.Fprintln(os.Stderr, "fakenotifyd:", err)
		os.Exit(1)
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fmt.Fprintln(os.Stderr, "fakenotifyd: cannot own", name, reply, err)
		os.Exit(1)
	}
	clicks := make(chan os.Signal, 1)
	signal.Notify(clicks, syscall.SIGUSR1)
	fmt.Println("fakenotifyd ready")
	for range clicks {
		srv.click()
	}
}
