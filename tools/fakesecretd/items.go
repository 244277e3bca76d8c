package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/godbus/dbus/v5"
)

// item is one kept secret.
type item struct {
	Label      string            `json:"label"`
	Attributes map[string]string `json:"attributes"`
	Secret     string            `json:"secret"`
	path       dbus.ObjectPath
}

// collection is the one collection, at its own path and as the default alias.
type collection struct{ k *keyring }

// SearchItems lists the items that have every attribute asked for.
func (c collection) SearchItems(attrs map[string]string) ([]dbus.ObjectPath, *dbus.Error) {
	c.k.mu.Lock()
	defer c.k.mu.Unlock()
	found := []dbus.ObjectPath{}
	for _, path := range c.k.sortedPaths() {
		if matches(c.k.items[path].Attributes, attrs) {
			found = append(found, path)
		}
	}
	return found, nil
}

func matches(have, want map[string]string) bool {
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}

// CreateItem keeps a secret; with replace, an item with the same attributes is
// replaced (its path stays).
func (c collection) CreateItem(props map[string]dbus.Variant, s secret, replace bool) (dbus.ObjectPath, dbus.ObjectPath, *dbus.Error) {
	label, _ := props[itemIface+".Label"].Value().(string)
	attrs, _ := props[itemIface+".Attributes"].Value().(map[string]string)
	k := c.k
	k.mu.Lock()
	defer k.mu.Unlock()
	it := &item{Label: label, Attributes: attrs, Secret: string(s.Value)}
	if replace {
		for _, path := range k.sortedPaths() {
			if maps.Equal(k.items[path].Attributes, attrs) {
				it.path = path
				break
			}
		}
	}
	if it.path == "" {
		k.next++
		it.path = dbus.ObjectPath(fmt.Sprintf("%s/i%d", collectionPath, k.next))
		if err := k.conn.Export(itemObject{k, it.path}, it.path, itemIface); err != nil {
			return "", noPrompt, dbus.MakeFailedError(err)
		}
	}
	k.items[it.path] = it
	if err := k.save(); err != nil {
		return "", noPrompt, dbus.MakeFailedError(err)
	}
	return it.path, noPrompt, nil
}

// itemObject serves one item at its path.
type itemObject struct {
	k    *keyring
	path dbus.ObjectPath
}

// GetSecret gives the secret back as it was kept (plain sessions only).
func (o itemObject) GetSecret(session dbus.ObjectPath) (secret, *dbus.Error) {
	o.k.mu.Lock()
	defer o.k.mu.Unlock()
	it, ok := o.k.items[o.path]
	if !ok {
		return secret{}, &dbus.Error{Name: "org.freedesktop.Secret.Error.NoSuchObject", Body: []any{"no such item"}}
	}
	return secret{Session: session, Parameters: []byte{}, Value: []byte(it.Secret), ContentType: "text/plain"}, nil
}

// Delete removes the item; no prompt is needed.
func (o itemObject) Delete() (dbus.ObjectPath, *dbus.Error) {
	o.k.mu.Lock()
	defer o.k.mu.Unlock()
	delete(o.k.items, o.path)
	_ = o.k.conn.Export(nil, o.path, itemIface)
	if err := o.k.save(); err != nil {
		return noPrompt, dbus.MakeFailedError(err)
	}
	return noPrompt, nil
}

func (k *keyring) sortedPaths() []dbus.ObjectPath {
	return slices.Sorted(maps.Keys(k.items))
}

// save writes the items to the dump file, whole (a rename), when there is one.
func (k *keyring) save() error {
	if k.dump == "" {
		return nil
	}
	list := []*item{}
	for _, path := range k.sortedPaths() {
		list = append(list, k.items[path])
	}
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(k.dump), "."+filepath.Base(k.dump)+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, k.dump)
}
