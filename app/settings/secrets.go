package settings

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/secrets"
)

// Where Wisp keeps the secrets of its settings (the model's API key, the API and
// terminal tokens; docs/config.md, "Where secrets live"): in the desktop's keyring
// when one answered at start, else in the config file (mode 0600), as before. The
// file lists what the keyring keeps (config.KeptKey) and keeps no value of it; the
// settings Wisp runs with are the file's with those values filled in (fill), then
// the environment's overrides.

// keptSecrets is the keyring's side: the values it keeps, read once at New, and
// whether new secrets go there. Its lock is a leaf: nothing is called while it is
// held.
type keptSecrets struct {
	kr      secrets.Keyring // nil: no keyring was set up (tests)
	service string
	log     *slog.Logger

	mu        sync.Mutex
	values    map[string]string // path → value as the keyring keeps it
	inKeyring bool              // new secrets go to the keyring
	reason    string            // why they go to the file instead
}

func newKeptSecrets(kr secrets.Keyring, service string, log *slog.Logger) *keptSecrets {
	return &keptSecrets{kr: kr, service: service, log: log, values: map[string]string{},
		reason: "no keyring was set up for this Wisp"}
}

// open reads the secrets the keyring keeps for this config file. The first call that
// fails (no session bus, no Secret Service, a locked or stuck one: each bounded in
// time) makes the file keep the secrets for this run. A secret the keyring has but
// the file does not list is held too, for tidy to have the keyring forget it.
func (k *keptSecrets) open(ctx context.Context) {
	if k.kr == nil {
		return
	}
	for _, path := range config.SecretPaths() {
		v, err := k.kr.Get(ctx, path)
		if errors.Is(err, secrets.ErrNotFound) {
			continue
		}
		if err != nil {
			k.fallBack(err)
			return
		}
		k.mu.Lock()
		k.values[path] = v
		k.mu.Unlock()
	}
	k.mu.Lock()
	k.inKeyring, k.reason = true, ""
	k.mu.Unlock()
	k.log.Info("secrets are kept in the keyring", "service", k.service)
}

// fallBack makes the config file keep new secrets for the rest of this run.
func (k *keptSecrets) fallBack(err error) {
	k.mu.Lock()
	k.inKeyring, k.reason = false, err.Error()
	k.mu.Unlock()
	level := slog.LevelWarn
	if errors.Is(err, secrets.ErrNoSessionBus) {
		level = slog.LevelInfo // a headless server: nothing is wrong
	}
	k.log.Log(context.Background(), level, "secrets are kept in the config file: no keyring answered", "reason", err.Error())
}

// fill is f's settings with the values of the secrets the keyring keeps.
func (k *keptSecrets) fill(f *config.File) config.Config {
	k.mu.Lock()
	defer k.mu.Unlock()
	return f.WithKept(k.values)
}

// held is the value the keyring keeps for path, and whether it keeps one.
func (k *keptSecrets) held(path string) (string, bool, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.values[path]
	return v, ok, k.inKeyring
}

// store puts each secret of f where it belongs, once a change has been made to f's
// settings with every kept secret filled in (before is how they were). A secret
// that is unchanged and kept stays out of the file; a new one goes to the keyring
// (set, then read back) and out of the file, or stays in the file when the file
// keeps secrets or the keyring fails (which makes the file keep them from now on);
// one that was cleared, or that the file no longer lists, is forgotten by the
// keyring too. It reports whether a value left the file. Call on the queue.
func (k *keptSecrets) store(ctx context.Context, f *config.File, before config.Config) (moved bool) {
	for _, path := range config.SecretPaths() {
		now, was := f.Config.Secret(path), before.Secret(path)
		value, isHeld, inKeyring := k.held(path)
		switch {
		case now == "" && (was != "" || (isHeld && !f.IsKept(path))):
			f.Unkeep(path)
			if isHeld {
				k.forget(ctx, path)
			}
		case now == "":
			// unset, or kept where this run cannot read it: left as it is
		case isHeld && value == now && f.IsKept(path):
			f.Keep(path) // unchanged, and still in the keyring
		case !inKeyring:
			// the file keeps it
		default:
			if err := secrets.Put(ctx, k.kr, path, now); err != nil {
				k.fallBack(err)
				continue
			}
			k.mu.Lock()
			k.values[path] = now
			k.mu.Unlock()
			f.Keep(path)
			moved = true
		}
	}
	return moved
}

// forget has the keyring drop a secret Wisp no longer uses. When it cannot, the
// item stays unlisted, and a later start that reaches the keyring removes it.
func (k *keptSecrets) forget(ctx context.Context, path string) {
	k.mu.Lock()
	delete(k.values, path)
	k.mu.Unlock()
	if err := k.kr.Delete(ctx, path); err != nil && !errors.Is(err, secrets.ErrNotFound) {
		k.log.Warn("the keyring still has a secret Wisp no longer uses", "secret", path, "err", err)
	}
}

// untidy says whether f, the file in use, leaves something for tidySecrets: a
// secret in the file while the keyring keeps secrets, or a secret the keyring keeps
// that the file no longer lists.
func (k *keptSecrets) untidy(f *config.File) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, path := range config.SecretPaths() {
		_, isHeld := k.values[path]
		if (k.inKeyring && f.Config.Secret(path) != "") || (isHeld && !f.IsKept(path)) {
			return true
		}
	}
	return false
}

// view says where secrets are kept, for GET /api/config.
func (k *keptSecrets) view(f *config.File) wire.SecretStore {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := wire.SecretStore{Where: wire.SecretsInFile, Service: k.service, Reason: k.reason, Unread: []string{}}
	if k.inKeyring {
		s.Where, s.Reason = wire.SecretsInKeyring, ""
	}
	for _, path := range f.Kept() {
		if _, ok := k.values[path]; !ok && slices.Contains(config.SecretPaths(), path) && f.Config.Secret(path) == "" {
			s.Unread = append(s.Unread, path)
		}
	}
	return s
}
