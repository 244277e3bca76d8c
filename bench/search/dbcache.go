package main

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/wispapp/wisp/app/store"
)

// corpusVersion names the generator: change it whenever the corpus or the way it is
// written changes, so a cached database of the old one is not reused.
const corpusVersion = 1

const (
	corpusSeed      = 20261125
	perConversation = 50    // messages, user and assistant in turn
	perTx           = 20000 // messages per transaction while writing: whole conversations
)

// cachedDB is the path of a Wisp database with n generated messages, built once
// and kept in cacheDir (a few hundred MB for a million), so that reruns start at
// once. built says whether this call wrote it, in took.
func cachedDB(ctx context.Context, cacheDir string, n int) (path string, built bool, took time.Duration, err error) {
	name := fmt.Sprintf("search-c%d-schema%d-%d.db", corpusVersion, store.SchemaVersion(), n)
	path = filepath.Join(cacheDir, name)
	if _, err := os.Stat(path); err == nil {
		return path, false, 0, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", false, 0, err
	}
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return "", false, 0, err
	}
	tmp := path + ".building"
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		_ = os.Remove(f)
	}
	start := time.Now()
	if err := buildDB(ctx, tmp, n); err != nil {
		return "", false, 0, fmt.Errorf("build %s: %w", name, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", false, 0, err
	}
	return path, true, time.Since(start), nil
}

// buildDB creates Wisp's schema at path (store.Open: every migration, the search
// index's triggers included) and writes n messages through those triggers, in
// conversations of perConversation.
func buildDB(ctx context.Context, path string, n int) error {
	s, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: path}).EscapedPath()+
		"?_journal_mode=WAL&_synchronous=OFF&_foreign_keys=on&_txlock=immediate&_cache_size=-262144")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	c := newCorpus(corpusSeed)
	ids := rand.New(rand.NewPCG(corpusSeed, 1))
	at := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)
	for done := 0; done < n; {
		batch := min(perTx, n-done)
		if err := writeBatch(ctx, db, c, ids, &at, done, batch); err != nil {
			return err
		}
		done += batch
		fmt.Fprintf(os.Stderr, "\rbench/search: writing messages: %d of %d", done, n)
	}
	fmt.Fprintln(os.Stderr)
	_, err = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// writeBatch writes messages first … first+count-1 in one transaction, each
// conversation's row before its first message.
func writeBatch(ctx context.Context, db *sql.DB, c *corpus, ids *rand.Rand, at *time.Time, first, count int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	conv, err := tx.PrepareContext(ctx, "INSERT INTO conversations (id, title, room_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	msg, err := tx.PrepareContext(ctx, "INSERT INTO messages (id, conversation_id, role, text, source, created_at) VALUES (?, ?, ?, ?, 'chat', ?)")
	if err != nil {
		return err
	}
	var convID string
	for i := first; i < first+count; i++ {
		if i%perConversation == 0 { // batches start with a conversation (perTx is a multiple)
			c.newTopic()
			convID = fmt.Sprintf("conv-%07d", i/perConversation)
			ms := at.UnixMilli()
			title := capitalise(c.topic[0]) + " and " + c.topic[1]
			if _, err := conv.ExecContext(ctx, convID, title, "room-"+convID, ms, ms+int64(perConversation)*60000); err != nil {
				return err
			}
		}
		assistant := i%2 == 1
		role := map[bool]string{false: "user", true: "assistant"}[assistant]
		*at = at.Add(time.Duration(20+ids.IntN(100)) * time.Second)
		if _, err := msg.ExecContext(ctx, randomID(ids), convID, role, c.message(assistant), at.UnixMilli()); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// randomID is a UUID-like id.
func randomID(rng *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
