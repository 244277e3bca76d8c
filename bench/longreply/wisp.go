package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // the driver app/store uses

	"github.com/wispapp/wisp/app"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// vocabulary makes the replies: one word per chunk, a space before every word
// but the first, nothing a JSON string must escape.
var vocabulary = strings.Fields("the quick brown fox jumps over a lazy dog while seven wise owls watch from old oak trees")

// words is a reply of n one-word chunks.
func words(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[i%len(vocabulary)]
		if i > 0 {
			out[i] = " " + out[i]
		}
	}
	return out
}

// prompt asks the fake model for a reply of n words (see replyTo).
func prompt(n int) string { return fmt.Sprintf("reply with %d words", n) }

// replyTo is the fake model's script: a reply of the length a prompt asks for.
func replyTo(r llmtest.Received) llmtest.Turn {
	var n int
	if _, err := fmt.Sscanf(r.LastUserText(), "reply with %d words", &n); err != nil || n < 1 {
		return llmtest.Turn{Text: []string{"Hello", "!"}}
	}
	return llmtest.Turn{Text: words(n)}
}

// wisp is a real Wisp App running in this process on 127.0.0.1, answered by
// the fake model with no delay between chunks.
type wisp struct {
	app    *app.App
	fake   *llmtest.Server
	dir    string
	client *http.Client
	db     *sql.DB // read-only, to see when a run's log is compacted
}

func startWisp(ctx context.Context, dir string, fake *llmtest.Server) (*wisp, error) {
	env := map[string]string{
		"WISP_PROVIDER": "openai", "WISP_BASE_URL": fake.OpenAIURL(), "WISP_MODEL": "fake", "OPENAI_API_KEY": "k",
	}
	a, err := benchkit.StartApp(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	w := &wisp{app: a, fake: fake, dir: dir, client: benchkit.NewHTTPClient()}
	if w.db, err = sql.Open("sqlite3", "file:"+(&url.URL{Path: w.dbPath()}).EscapedPath()+"?mode=ro"); err != nil {
		_ = a.Stop()
		return nil, err
	}
	return w, nil
}

// stop stops Wisp, which waits for the runs' log compaction, and closes its
// database (checkpointing the write-ahead log into wisp.db).
func (w *wisp) stop() error {
	w.db.Close()
	return w.app.Stop()
}

func (w *wisp) dbPath() string { return filepath.Join(w.dir, "wisp.db") }

// newConversation creates an empty conversation and returns its id.
func (w *wisp) newConversation(ctx context.Context) (string, error) {
	var out struct{ Conversation struct{ ID string } }
	err := benchkit.PostJSON(ctx, w.client, w.app.URL()+"/api/conversations", map[string]any{}, &out)
	return out.Conversation.ID, err
}

// streamURL is where a reply in conversation conv streams in dialect
// ("" for the default, Eliza's).
func (w *wisp) streamURL(conv, dialect string) string {
	u := w.app.URL() + "/api/conversations/" + conv + "/messages/stream"
	if dialect != "" {
		u += "?dialect=" + dialect
	}
	return u
}

// awaitCompacted waits until the run's log has been compacted, which Wisp
// does right after the run ends.
func (w *wisp) awaitCompacted(ctx context.Context, runID string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var compacted int
		err := w.db.QueryRowContext(ctx, "SELECT compacted FROM runs WHERE id = ?", runID).Scan(&compacted)
		switch {
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("run %s: read its state: %w", runID, err)
		case compacted == 1:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("run %s: its log was not compacted within a minute", runID)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
