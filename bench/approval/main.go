// Command approval is Wisp's benchmark of the shell action's approval: the time from
// the user's decision (POST /api/approvals/{id}) to the command's first output line
// in the chat (the action's callback frame carrying it on the run's SSE stream),
// against a direct terminal run of the same command in the same run (POST
// /api/terminal/run with captured output: start to output). Both go through the same
// terminal manager and PTY; the difference is what the approval path adds: the
// compare-and-swap in SQLite, waking the paused run, its run_resumed and tool status
// events on disk, and the callback reaching the stream.
//
// It starts two real Wisp Apps in this process (shell access on, the API token `wisp
// serve` keeps), one whose agent commands run confined (the default) and one with
// confinement turned off, each answered by the fake LLM scripted to ask for
// `printf 'hi\n'` in every turn, and alternates a confined round, an unconfined
// round and a floor round. Then it times the confine package itself (rules built,
// a process started). The results are printed and, with --out, written between the
// "<!-- bench:approval:… -->" and "<!-- bench:confine:… -->" markers of BENCHMARKS.md.
//
// Usage (see `make bench`):
//
//	go run ./bench/approval --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

// command is what the model asks for, and what the floor runs.
const command = "printf 'hi\\n'"

type config struct {
	runs, warmup int
	out, profile string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 200, "recorded rounds of each")
	flag.IntVar(&cfg.warmup, "warmup", 10, "unrecorded rounds of each before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose approval section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	benchkit.Main("approval", cfg.profile, func(ctx context.Context, tmp string) error {
		res, err := measure(ctx, tmp, cfg)
		if err != nil {
			return err
		}
		c, err := measureCosts(tmp)
		if err != nil {
			return fmt.Errorf("confinement costs: %w", err)
		}
		if err := benchkit.Publish(cfg.out, "approval", intro, report(res, cfg)); err != nil {
			return err
		}
		return benchkit.Publish(cfg.out, "confine", confineIntro, confineReport(res, c, cfg))
	})
}

const intro = `## Shell approval: decision → first output line in the chat

The agent's RUN_SHELL action, approved by the user: from POST /api/approvals/{id}
to the run's SSE frame that first carries the command's output in the chat,
against a direct terminal run of the same command (POST /api/terminal/run with
captured output: request → output) in the same run, rounds alternating. Both use
the same terminal manager and a real PTY. Driver: ` + "`bench/approval`" + ` (` + "`make bench`" + `).
`

func report(r results, cfg config) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/approval")
	fmt.Fprintf(&b, "%s · %d recorded rounds of each after %d unrecorded.\n\n", env.Line(), cfg.runs, cfg.warmup)
	b.WriteString("| | p50 | p99 |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| approval → first output line in the chat | %s | %s |\n", benchkit.Msec(r.wisp.P50), benchkit.Msec(r.wisp.P99))
	fmt.Fprintf(&b, "| floor: direct terminal run → output | %s | %s |\n", benchkit.Msec(r.floor.P50), benchkit.Msec(r.floor.P99))
	fmt.Fprintf(&b, "| **ratio** | **%.2f×** | **%.2f×** |\n", r.wisp.P50/r.floor.P50, r.wisp.P99/r.floor.P99)
	return b.String()
}
