// Package storetest gives the tests of other packages a real, fresh database: one
// conversation and the runs they name, as the services that keep approvals, runs and
// display rows expect to find. It imports only app/store.
package storetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
)

// Open opens a fresh database in a temporary folder (closed when the test ends)
// holding the conversation conv and, in it, the runs named.
func Open(t testing.TB, conv string, runs ...string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "wisp.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Now()
	if err := st.CreateConversation(ctx, store.Conversation{ID: conv, Title: "T", RoomID: "room", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, run := range runs {
		if err := st.CreateRun(ctx, store.Run{ID: run, ConversationID: conv, StartedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}
