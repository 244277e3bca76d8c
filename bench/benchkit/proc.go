package benchkit

import (
	"bytes"
	"os"
	"strings"
	"sync"
)

// ChildEnv is this process's environment without WISP_* variables, so that a
// token or port set in the caller's shell does not change what a Wisp started by
// the driver does (the driver adds its own).
func ChildEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WISP_") {
			env = append(env, kv)
		}
	}
	return env
}

// TailBuffer keeps the last Max bytes written to it (a child's stderr, for the
// error that says why it failed); safe for concurrent use.
type TailBuffer struct {
	Max int
	mu  sync.Mutex
	buf []byte
}

func (b *TailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.Max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// String is what was kept, as valid UTF-8.
func (b *TailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(bytes.ToValidUTF8(b.buf, nil))
}
