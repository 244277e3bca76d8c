package app

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/atomicfile"
	"github.com/wispapp/wisp/internal/regular"
)

// tokenFileName is where `wisp serve` keeps its API token, in the state folder.
const tokenFileName = "api-token"

// ownTokens are the tokens Wisp makes for itself.
type ownTokens struct {
	launch string     // the desktop window's, new at every launch
	file   *tokenFile // `wisp serve`'s, kept in the state folder
}

// ownToken is the token Wisp made for itself that the API accepts under cfg, besides
// cfg's api.token: the desktop window's, new at every launch, or, for `wisp serve`
// with no token configured, the one kept in <state>/api-token. "" when there is none.
func (a *App) ownToken(cfg config.Config) (string, error) {
	if a.own.launch != "" {
		return a.own.launch, nil
	}
	if a.own.file == nil || cfg.API.Token != "" {
		return "", nil // a configured token wins; the file is not read or made
	}
	return a.own.file.token()
}

// APIToken is the token a client of the running API sends: the configured one,
// else Wisp's own. "" when the API needs none.
func (a *App) APIToken() string {
	cfg := a.svc.Load().cfg
	if cfg.API.Token != "" {
		return cfg.API.Token
	}
	t, _ := a.ownToken(cfg) // resolved when the services were built
	return t
}

// OpenURL is the address to open in a browser: the UI, with the API token in the
// fragment (#token=…), which browsers never send to the server, so it stays out of
// request logs. The UI takes it from there and removes it from the address bar.
func (a *App) OpenURL() string {
	u := a.URL() + "/"
	if t := a.APIToken(); t != "" {
		u += "#token=" + url.QueryEscape(t)
	}
	return u
}

// tokenFile is `wisp serve`'s API token, read from its file (or made and written
// there) the first time it is needed, then kept.
type tokenFile struct {
	path string
	log  *slog.Logger

	mu    sync.Mutex
	value string
}

func (f *tokenFile) token() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.value == "" {
		t, err := loadOrMakeToken(f.path, f.log)
		if err != nil {
			return "", err
		}
		f.value = t
	}
	return f.value, nil
}

// errUnusableToken marks a token file whose content cannot be used as it is: a new
// token replaces it.
var errUnusableToken = errors.New("unusable API token file")

// loadOrMakeToken reads the token kept at path. A missing file, or one whose content
// is not a token or that others may read, gets a new token (mode 0600). A file that
// cannot be read at all is an error: Wisp does not start without its token.
func loadOrMakeToken(path string, log *slog.Logger) (string, error) {
	t, err := readToken(path)
	switch {
	case err == nil:
		return t, nil
	case errors.Is(err, errUnusableToken):
		log.Warn("API token file replaced by a new token", "path", path, "why", err)
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("read the API token: %w (fix or delete the file, or set WISP_API_TOKEN)", err)
	}
	t = newToken()
	if err := writeToken(path, t); err != nil {
		return "", fmt.Errorf("keep the API token: %w", err)
	}
	return t, nil
}

// maxTokenFile bounds what is read of a token file.
const maxTokenFile = 1 << 10

// readToken reads the token kept at path. Anything there but a regular file is an
// error, found without blocking (a named pipe would hold an ordinary open forever).
// A symbolic link is refused, not followed: Wisp writes the file itself, never as a
// link, and a link there would have Wisp serve (and print in its URL) the content of
// a file it does not own as its token.
func readToken(path string) (string, error) {
	f, err := regular.Open(path, os.O_RDONLY, 0, regular.NoFollow)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%w: others may read it (mode %#o)", errUnusableToken, info.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	t := strings.TrimSpace(string(data))
	if !validToken(t) {
		return "", fmt.Errorf("%w: not a token (want 32 to %d letters, digits, '-' or '_')", errUnusableToken, maxTokenFile)
	}
	return t, nil
}

// validToken accepts what newToken makes: URL-safe characters, long enough to guess
// never.
func validToken(t string) bool {
	if len(t) < 32 || len(t) > maxTokenFile {
		return false
	}
	for _, c := range []byte(t) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			return false
		}
	}
	return true
}

// newToken is 256 random bits, URL-safe (43 characters).
func newToken() string {
	return base64.RawURLEncoding.EncodeToString(randomBytes(32))
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux
	return b
}

// writeToken replaces the file at path with t, atomically, readable only by its owner
// (internal/atomicfile).
func writeToken(path, t string) error {
	return atomicfile.Write(path, []byte(t+"\n"), 0o600)
}

// sweepStateFolder removes the temporary files that writes of the kept token killed
// before their rename left in the state folder. It runs once the state folder's lock
// is held, so no other Wisp writes there; a write in progress would keep its file
// anyway (atomicfile.Sweep). (The config file's are swept where it is loaded.)
func (a *App) sweepStateFolder() {
	removed, err := atomicfile.Sweep(a.stateDir, tokenFileName)
	for _, path := range removed {
		a.log.Info("removed a temporary file left by an interrupted write", "path", path)
	}
	if err != nil {
		a.log.Warn("clean up the state folder", "err", err)
	}
}
