// Package secrets keeps Wisp's secrets (the model's API key, the API and terminal
// tokens) in the desktop's keyring: the freedesktop Secret Service on the D-Bus
// session bus (gnome-keyring, KWallet, KeePassXC), through github.com/zalando/go-keyring.
//
// It owns the names a secret is kept under (Service: one per config file), the time
// bound of every call (a Secret Service that never answers must not hang Wisp's start
// or a save: DefaultTimeout), and the reason a keyring cannot be used, in words a
// user can act on. Which secrets go here, and when the config file keeps them
// instead, is app's to decide. It is a leaf: it imports nothing of Wisp.
package secrets

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
)

// ErrNotFound: the keyring answered, and holds no such secret.
var ErrNotFound = errors.New("no such secret in the keyring")

// Keyring keeps secrets by name (a setting's path: "model.apiKey"). Every error but
// ErrNotFound means the keyring could not be used for that call, and says why.
type Keyring interface {
	Get(ctx context.Context, name string) (string, error)
	Set(ctx context.Context, name, value string) error
	// Delete removes a secret; ErrNotFound when there was none.
	Delete(ctx context.Context, name string) error
}

// Put sets a secret and reads it back: only a value the keyring gives back as it was
// given counts as kept there (a caller then removes it from the file).
func Put(ctx context.Context, k Keyring, name, value string) error {
	if err := k.Set(ctx, name, value); err != nil {
		return err
	}
	got, err := k.Get(ctx, name)
	switch {
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("the keyring lost %s right after keeping it", name)
	case err != nil:
		return err
	case got != value:
		return fmt.Errorf("the keyring gave %s back changed", name)
	}
	return nil
}

// ServiceFor is the keyring's service for the secrets of the config file at path:
// "wisp:" and the file's absolute path. Two Wisps with different state folders (so
// different files) never share a secret; two that share one file (WISP_CONFIG_PATH)
// share its settings, secrets included. Each secret is an item with the attributes
// service=<this> and username=<the setting's path>, labelled "Password for
// 'model.apiKey' on 'wisp:/home/…/wisp.json'" in the keyring's own tools.
func ServiceFor(configPath string) string {
	if abs, err := filepath.Abs(configPath); err == nil {
		configPath = abs
	}
	return "wisp:" + filepath.Clean(configPath)
}
