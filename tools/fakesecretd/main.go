// Command fakesecretd is a stand-in Secret Service (the freedesktop keyring API that
// gnome-keyring and KWallet serve) for the keyring tests (keyring_test.go): it owns
// org.freedesktop.secrets on the session bus and keeps items in memory, in one
// always-unlocked collection that is also the default alias. It serves what
// github.com/zalando/go-keyring calls: OpenSession with the "plain" algorithm,
// Unlock, the Collections property, SearchItems and CreateItem (with replace) on the
// collection, GetSecret and Delete on an item, Close on a session.
//
// -dump FILE writes the items as JSON after every change (before the call is
// answered), so a test sees what Wisp kept. -hang owns the name and answers nothing:
// every call waits until the process ends, like a Secret Service that is stuck. It
// prints "fakesecretd ready" once it owns the name. It imports nothing of Wisp.
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

const (
	name           = "org.freedesktop.secrets"
	root           = dbus.ObjectPath("/org/freedesktop/secrets")
	collectionPath = dbus.ObjectPath("/org/freedesktop/secrets/collection/login")
	aliasPath      = dbus.ObjectPath("/org/freedesktop/secrets/aliases/default")
	serviceIface   = "org.freedesktop.Secret.Service"
	collIface      = "org.freedesktop.Secret.Collection"
	itemIface      = "org.freedesktop.Secret.Item"
	sessionIface   = "org.freedesktop.Secret.Session"
	noPrompt       = dbus.ObjectPath("/")
)

// secret is the Secret Service's Secret struct, (oayays).
type secret struct {
	Session     dbus.ObjectPath
	Parameters  []byte
	Value       []byte
	ContentType string
}

func main() {
	dump := flag.String("dump", "", "write the items as JSON to this file after every change")
	hang := flag.Bool("hang", false, "own the name and answer no call")
	flag.Parse()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fail(err)
	}
	if *hang {
		h := hanging{}
		for _, p := range []dbus.ObjectPath{root, collectionPath, aliasPath} {
			for _, iface := range []string{serviceIface, collIface, "org.freedesktop.DBus.Properties"} {
				if err := conn.Export(h, p, iface); err != nil {
					fail(err)
				}
			}
		}
	} else {
		k := &keyring{conn: conn, dump: *dump, items: map[dbus.ObjectPath]*item{}}
		if err := k.export(); err != nil {
			fail(err)
		}
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fail(fmt.Errorf("cannot own %s: %v %v", name, reply, err))
	}
	fmt.Println("fakesecretd ready")
	select {}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fakesecretd:", err)
	os.Exit(1)
}

// hanging answers no call: each waits until the process ends.
type hanging struct{}

func (hanging) OpenSession(string, dbus.Variant) (dbus.Variant, dbus.ObjectPath, *dbus.Error) {
	select {}
}
func (hanging) Unlock([]dbus.ObjectPath) ([]dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) { select {} }
func (hanging) SearchItems(map[string]string) ([]dbus.ObjectPath, *dbus.Error)             { select {} }
func (hanging) Get(string, string) (dbus.Variant, *dbus.Error)                             { select {} }

// keyring is the service, its one collection and its sessions.
type keyring struct {
	conn     *dbus.Conn
	dump     string
	mu       sync.Mutex
	items    map[dbus.ObjectPath]*item
	next     int
	sessions int
}

func (k *keyring) export() error {
	if err := k.conn.Export(k, root, serviceIface); err != nil {
		return err
	}
	props := prop.Map{serviceIface: {
		"Collections": {Value: []dbus.ObjectPath{collectionPath}, Emit: prop.EmitFalse},
	}}
	if _, err := prop.Export(k.conn, root, props); err != nil {
		return err
	}
	c := collection{k}
	for _, p := range []dbus.ObjectPath{collectionPath, aliasPath} {
		if err := k.conn.Export(c, p, collIface); err != nil {
			return err
		}
	}
	return nil
}

// OpenSession opens a session without encryption: the only algorithm served.
func (k *keyring) OpenSession(algorithm string, _ dbus.Variant) (dbus.Variant, dbus.ObjectPath, *dbus.Error) {
	if algorithm != "plain" {
		return dbus.MakeVariant(""), "", &dbus.Error{Name: "org.freedesktop.DBus.Error.NotSupported",
			Body: []any{"only the plain algorithm is served"}}
	}
	k.mu.Lock()
	k.sessions++
	path := dbus.ObjectPath(fmt.Sprintf("%s/session/s%d", root, k.sessions))
	k.mu.Unlock()
	if err := k.conn.Export(session{k, path}, path, sessionIface); err != nil {
		return dbus.MakeVariant(""), "", dbus.MakeFailedError(err)
	}
	return dbus.MakeVariant(""), path, nil
}

// Unlock has nothing to unlock: everything is, and no prompt is needed.
func (k *keyring) Unlock(objects []dbus.ObjectPath) ([]dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) {
	return objects, noPrompt, nil
}

// SearchItems on the service looks in the one collection.
func (k *keyring) SearchItems(attrs map[string]string) ([]dbus.ObjectPath, []dbus.ObjectPath, *dbus.Error) {
	found, _ := collection{k}.SearchItems(attrs)
	return found, []dbus.ObjectPath{}, nil
}

type session struct {
	k    *keyring
	path dbus.ObjectPath
}

func (s session) Close() *dbus.Error {
	_ = s.k.conn.Export(nil, s.path, sessionIface)
	return nil
}
