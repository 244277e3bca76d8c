// Command context is Wisp's benchmark of the model's context on a long branch: the
// assembly of a turn's context (docs/context.md: the walk up the branch in pages,
// the saved token counts, the summary it stops at) on a 10,000-message branch,
// against reading the same messages' text with one plain SQLite query; and the
// first-token time of a turn with and without that history, against a bare relay
// (the same provider client streaming the same fake model, nothing else).
//
// Everything runs in the driver's process: chat.Service on a real SQLite file, the
// real agent and OpenAI client, the fake model (runtime/llm/llmtest) over loopback
// HTTP. Rounds interleave the cases, the first of each alternating.
//
// Usage (see `make bench`):
//
//	go run -tags sqlite_fts5 ./bench/context --out BENCHMARKS.md
package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/wispapp/wisp/app/chat"
	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
	"github.com/wispapp/wisp/runtime/llm/tokens"
)

type config struct {
	messages, rounds, warmup, turns int
	out, profile, fakellm           string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.messages, "messages", 10_000, "messages on the long branch")
	flag.IntVar(&cfg.rounds, "rounds", 300, "recorded assemblies of each case")
	flag.IntVar(&cfg.turns, "turns", 60, "recorded turns of each first-token case")
	flag.IntVar(&cfg.warmup, "warmup", 5, "unrecorded rounds before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose context section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.StringVar(&cfg.fakellm, "fakellm", "build/bin/wisp-fakellm", "the fake model's binary (make fakellm), run as a process of its own")
	flag.Parse()
	benchkit.Main("context", cfg.profile, func(ctx context.Context, tmp string) error { return run(ctx, cfg, tmp) })
}

// model is the model name: an OpenAI one, so the count is tiktoken's.
const model = "gpt-4o-mini"

type nopEvents struct{}

func (nopEvents) Publish(wire.Frame) {}

func run(ctx context.Context, cfg config, tmp string) error {
	modelURL, stopModel, err := startModel(ctx, cfg.fakellm)
	if err != nil {
		return err
	}
	defer stopModel()
	prov, err := llm.New(llm.Config{Kind: "openai", BaseURL: modelURL + "/v1", APIKey: "k"})
	if err != nil {
		return err
	}
	agent := runtime.New(runtime.Options{Provider: func() (llm.Provider, error) { return prov, nil },
		Settings: func() runtime.Settings {
			return runtime.Settings{Character: runtime.Character{Name: "Wisp", System: "Be brief."}, Model: model, MaxTokens: 1024}
		}, Logger: slog.New(slog.DiscardHandler)})
	path := filepath.Join(tmp, "wisp.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	long, err := buildBranch(ctx, st, "long", cfg.messages, true)
	if err != nil {
		return err
	}
	bare, err := buildBranch(ctx, st, "bare", cfg.messages, false)
	if err != nil {
		return err
	}
	svc := chat.New(chat.Options{Store: st, Agent: agent, Events: nopEvents{}, Logger: slog.New(slog.DiscardHandler),
		NoTitles: true, Counter: func(m string) chat.Counter { return tokens.For(m) }})
	if err := svc.Start(ctx); err != nil {
		return err
	}
	defer svc.Stop()
	db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		return err
	}
	defer db.Close()

	asm, err := measureAssembly(ctx, cfg, svc, db, st, long, bare)
	if err != nil {
		return err
	}
	ft, err := measureFirstToken(ctx, cfg, svc, prov, long)
	if err != nil {
		return err
	}
	return benchkit.Publish(cfg.out, "context", intro, report(cfg, asm, ft))
}

// startModel starts the fake model as a process of its own (its parsing and
// counting of prompts is not Wisp's CPU) and answers its base URL.
func startModel(ctx context.Context, bin string) (string, func(), error) {
	cmd := exec.CommandContext(ctx, bin, "--addr", "127.0.0.1:0")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start the fake model (make fakellm): %w", err)
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	i := strings.Index(line, "http://")
	if err != nil || i < 0 {
		stop()
		return "", nil, fmt.Errorf("the fake model did not start: %q %v", line, err)
	}
	return strings.TrimSpace(line[i:]), stop, nil
}

// filler is a message of about 390 characters (the UI benchmark's average).
func filler(i int) string {
	return fmt.Sprintf("Message %d. ", i) + strings.Repeat("The quick brown fox jumps over the lazy dog near the river bank. ", 6)
}

// buildBranch writes a conversation of n messages, user and assistant in turn; with
// summarised set, a done summary stands for all but its last 40 (what a long
// conversation has after its summaries).
func buildBranch(ctx context.Context, st *store.Store, id string, n int, summarised bool) (string, error) {
	now := time.Now().Add(-time.Duration(n) * time.Second)
	if err := st.CreateConversation(ctx, store.Conversation{ID: id, Title: id, CreatedAt: now, UpdatedAt: now}); err != nil {
		return "", err
	}
	var through store.Message
	for done := 0; done < n; {
		err := st.InTx(ctx, func(tx *store.Tx) error {
			for k := 0; k < 1000 && done < n; k, done = k+1, done+1 {
				role := "user"
				if done%2 == 1 {
					role = "assistant"
				}
				m, err := tx.AddMessage(ctx, store.Message{ID: fmt.Sprintf("%s-%d", id, done), ConversationID: id, Role: role,
					Text: filler(done), CreatedAt: now.Add(time.Duration(done) * time.Second)})
				if err != nil {
					return err
				}
				if done == n-41 {
					through = m
				}
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	if summarised {
		err := st.CreateSummary(ctx, store.Summary{ID: id + "-sum", ConversationID: id, ThroughID: through.ID,
			Covers: through.Depth + 1, FromAt: now, ThroughAt: through.CreatedAt, Text: strings.Repeat("The user and Wisp talked about foxes. ", 20),
			Status: store.SummaryDone, CreatedAt: time.Now()})
		if err != nil {
			return "", err
		}
	}
	return id, nil
}

// assembly is the figures of one branch: the assembly through chat and the floor.
type assembly struct {
	walked       int
	wisp, floor  benchkit.Tail
	name, detail string
}

// measureAssembly times chat's context assembly (ContextInfo: the walk, the token
// counts, the summary) and the floor: one query reading the text of the messages the
// walk reads.
func measureAssembly(ctx context.Context, cfg config, svc *chat.Service, db *sql.DB, st *store.Store, long, bare string) ([]assembly, error) {
	var out []assembly
	for _, c := range []struct{ conv, name, detail string }{
		{long, "summarised branch", "a done summary stands for all but the newest 40 messages"},
		{bare, "never summarised", "no summary: the walk stops at its bound, six budgets of tokens"},
	} {
		info, err := svc.ContextInfo(ctx, c.conv) // counts and saves the tokens once
		if err != nil {
			return nil, err
		}
		walked := walkedCount(ctx, st, c.conv, info, c.conv == long)
		var w, f []float64
		for i := 0; i < cfg.warmup+cfg.rounds; i++ {
			order := []bool{i%2 == 0, i%2 != 0}
			for _, wispFirst := range order {
				start := time.Now()
				if wispFirst {
					if _, err := svc.ContextInfo(ctx, c.conv); err != nil {
						return nil, err
					}
				} else if err := floorRead(ctx, db, c.conv, walked); err != nil {
					return nil, err
				}
				d := benchkit.Ms(time.Since(start))
				if i < cfg.warmup {
					continue
				}
				if wispFirst {
					w = append(w, d)
				} else {
					f = append(f, d)
				}
			}
		}
		out = append(out, assembly{walked: walked, wisp: benchkit.TailOf(w), floor: benchkit.TailOf(f), name: c.name, detail: c.detail})
	}
	return out, nil
}

// walkedCount is how many messages the walk reads: those after the summary, or the
// newest whose tokens first pass six budgets.
func walkedCount(ctx context.Context, st *store.Store, conv string, info wire.ContextInfo, summarised bool) int {
	if summarised {
		return 40
	}
	msgs, _ := st.Messages(ctx, conv, 2000)
	c := tokens.For(model)
	n, total := 0, 0
	for i := len(msgs) - 1; i >= 0 && total <= 6*info.Budget; i-- {
		total += c.Count(msgs[i].Text) + 4
		n++
	}
	return n
}

// floorRead reads the text of the newest n messages of a single-branch conversation
// with one plain query.
func floorRead(ctx context.Context, db *sql.DB, conv string, n int) error {
	rows, err := db.QueryContext(ctx, `SELECT text FROM messages WHERE conversation_id = ?
		AND depth >= (SELECT MAX(depth) FROM messages WHERE conversation_id = ?) - ? + 1 ORDER BY depth`, conv, conv, n)
	if err != nil {
		return err
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		got++
	}
	if got != n {
		return fmt.Errorf("the floor read %d messages, not %d", got, n)
	}
	return rows.Err()
}

// firstToken is the first-token times of the four cases.
type firstToken struct {
	relay, relayLong, short, long benchkit.Tail
}

// measureFirstToken times, from the call to the first token, the bare relay (the
// provider client streaming the fake model), a turn in a fresh conversation, and a
// turn on the long branch; rounds interleave them.
func measureFirstToken(ctx context.Context, cfg config, svc *chat.Service, prov llm.Provider, long string) (firstToken, error) {
	var relay, relayLong, short, longT []float64
	history, err := longHistory(ctx, svc, long)
	if err != nil {
		return firstToken{}, err
	}
	cases := []func() (float64, error){
		func() (float64, error) { return relayFirst(ctx, prov, nil) },
		func() (float64, error) { return relayFirst(ctx, prov, history) },
		func() (float64, error) {
			c, err := svc.CreateConversation(ctx, "", nil)
			if err != nil {
				return 0, err
			}
			return turnFirst(ctx, svc, c.ID)
		},
		func() (float64, error) { return turnFirst(ctx, svc, long) },
	}
	outs := []*[]float64{&relay, &relayLong, &short, &longT}
	for i := 0; i < cfg.warmup+cfg.turns; i++ {
		for k := range cases {
			j := (k + i) % len(cases)
			d, err := cases[j]()
			if err != nil {
				return firstToken{}, err
			}
			if i >= cfg.warmup {
				*outs[j] = append(*outs[j], d)
			}
		}
	}
	return firstToken{benchkit.TailOf(relay), benchkit.TailOf(relayLong), benchkit.TailOf(short), benchkit.TailOf(longT)}, nil
}

// longHistory is what a turn on the long branch sends before its question: the
// summary and the messages after it.
func longHistory(ctx context.Context, svc *chat.Service, conv string) ([]llm.Message, error) {
	msgs, err := svc.Messages(ctx, conv, chat.Page{Limit: 40})
	if err != nil {
		return nil, err
	}
	out := []llm.Message{{Role: llm.RoleUser, Text: "Earlier in this conversation (a summary of 9,960 messages): " +
		strings.Repeat("The user and Wisp talked about foxes. ", 20)}}
	for _, m := range msgs.Messages {
		out = append(out, llm.Message{Role: llm.Role(m.Role), Text: m.Text})
	}
	return out, nil
}

func relayFirst(ctx context.Context, prov llm.Provider, history []llm.Message) (float64, error) {
	start := time.Now()
	var first time.Duration
	msgs := append(append([]llm.Message(nil), history...), llm.Message{Role: llm.RoleUser, Text: "Hello?"})
	_, err := prov.Stream(ctx, llm.Request{Model: model, System: "Be brief.", MaxTokens: 1024,
		Messages: msgs}, func(d llm.Delta) {
		if first == 0 && d.Kind == llm.DeltaText {
			first = time.Since(start)
		}
	})
	return benchkit.Ms(first), err
}

// turnFirst sends a message and reads the run in the delta dialect up to its first
// token, then to its end.
func turnFirst(ctx context.Context, svc *chat.Service, conv string) (float64, error) {
	start := time.Now()
	run, err := svc.Send(ctx, conv, chat.SendInput{Text: "Hello?"})
	if err != nil {
		return 0, err
	}
	sub, err := svc.Subscribe(ctx, run.ID, 0, dialect.NewDelta())
	if err != nil {
		return 0, err
	}
	var first time.Duration
	for {
		f, err := sub.Next(ctx)
		if err != nil {
			return 0, fmt.Errorf("the run's stream: %w", err)
		}
		if first == 0 && strings.Contains(string(f.Data), `"type":"token"`) {
			first = time.Since(start)
		}
		if f.Final {
			if !strings.Contains(string(f.Data), `"type":"done"`) {
				return 0, fmt.Errorf("the run failed: %s", f.Data)
			}
			break
		}
	}
	if first == 0 {
		return 0, fmt.Errorf("no token in the run")
	}
	return benchkit.Ms(first), nil
}

const intro = `## Context: assembly on a 10,000-message branch, first token with a long history

A turn's context is assembled by tokens (docs/context.md): the branch is walked up in
pages of 256 from the question, with each message's saved token count, to the newest
summary on it. Measured in the driver's process on a real SQLite file: chat's assembly
(` + "`ContextInfo`" + `, the same walk a turn makes) against one plain query reading the text of
the same messages, rounds alternating; and the first-token time of a turn (send → first
token frame of its run in the delta dialect) in a fresh conversation and on the
10,000-message branch, against the bare relay: the same OpenAI client streaming the same
fake model, nothing stored. Target (issue 30): first token against the relay floor with
the long history ≤ 1.1× the figure without it. Driver: ` + "`bench/context`" + ` (` + "`make bench`" + `).
`

func report(cfg config, asm []assembly, ft firstToken) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/context")
	fmt.Fprintf(&b, "%s · branch of %s messages of ~390 characters · %d recorded rounds after %d · model %s (tiktoken counts)\n\n",
		env.Line(), thousands(cfg.messages), cfg.rounds, cfg.warmup, model)
	b.WriteString("| assembly | messages read | Wisp p50 | Wisp p99 | floor p50 | floor p99 | p50 ratio | p99 ratio |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, a := range asm {
		fmt.Fprintf(&b, "| %s (%s) | %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f× | %.2f× |\n", a.name, a.detail, a.walked,
			a.wisp.P50, a.wisp.P99, a.floor.P50, a.floor.P99, a.wisp.P50/a.floor.P50, a.wisp.P99/a.floor.P99)
	}
	fmt.Fprintf(&b, "\n| first token (%d turns each) | p50 | p99 | p50 vs relay |\n|---|--:|--:|--:|\n", cfg.turns)
	fmt.Fprintf(&b, "| floor: bare relay, the question alone | %.2f ms | %.2f ms | 1.00× |\n", ft.relay.P50, ft.relay.P99)
	fmt.Fprintf(&b, "| Wisp, fresh conversation | %.2f ms | %.2f ms | %.2f× |\n", ft.short.P50, ft.short.P99, ft.short.P50/ft.relay.P50)
	fmt.Fprintf(&b, "| floor: bare relay, the same context as Wisp's long turn (summary + 40 messages) | %.2f ms | %.2f ms | 1.00× |\n", ft.relayLong.P50, ft.relayLong.P99)
	fmt.Fprintf(&b, "| Wisp, 10,000-message branch | %.2f ms | %.2f ms | %.2f× |\n", ft.long.P50, ft.long.P99, ft.long.P50/ft.relayLong.P50)
	ratio := ft.long.P50 / ft.short.P50
	fmt.Fprintf(&b, "\nAgainst its own floor the long turn costs %.2f× (the fresh one %.2f×): what grows with the history is mostly the prompt the provider reads (the relay with the same context: %.2f× the question alone).\n",
		ft.long.P50/ft.relayLong.P50, ft.short.P50/ft.relay.P50, ft.relayLong.P50/ft.relay.P50)
	// The target compares the first-token figures taken against the relay
	// floor: the long history's (against the relay sending the same context) and the
	// fresh conversation's. The raw times are given too: they also hold what the
	// provider takes to read a longer prompt, which no floor can take away.
	against := (ft.long.P50 / ft.relayLong.P50) / (ft.short.P50 / ft.relay.P50)
	fmt.Fprintf(&b, "\nTarget: first token against the relay floor with the 10,000-message history ≤ 1.1× the figure without it (p50): %s (%.2f× / %.2f× = %.2f×). The raw times, the prompt's length included: %.2f×.\n",
		verdict(against <= 1.1), ft.long.P50/ft.relayLong.P50, ft.short.P50/ft.relay.P50, against, ratio)
	return b.String()
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
