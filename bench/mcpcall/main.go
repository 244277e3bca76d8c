// Command mcpcall is Wisp's benchmark of an MCP tool call: the time from the model
// asking for a tool (the run's tool_start frame) to the tool's result back in the run
// log (its tool_end frame, carrying the result), through Wisp with the tool granted,
// against calling the same tool of the same server directly with the official SDK in
// the same run. The server is an in-process MCP server over Streamable HTTP on
// loopback with one tool, add; the difference is what Wisp adds: the grant check in
// SQLite, the action's status and progress events in the run log, the call through
// its supervised session, and the result's frame.
//
// Usage (see `make bench`):
//
//	go run ./bench/mcpcall --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	runs, warmup int
	out, profile string
}

func main() {
	var cfg config
	flag.IntVar(&cfg.runs, "runs", 200, "recorded rounds of each")
	flag.IntVar(&cfg.warmup, "warmup", 10, "unrecorded rounds of each before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose mcpcall section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	benchkit.Main("mcpcall", cfg.profile, func(ctx context.Context, tmp string) error {
		res, err := measure(ctx, tmp, cfg)
		if err != nil {
			return err
		}
		return benchkit.Publish(cfg.out, "mcpcall", intro, report(res, cfg))
	})
}

const intro = `## MCP tool call: the model asks → the result in the run log

A granted tool of an MCP server (in-process, Streamable HTTP on loopback, one tool
that adds two numbers), called by the agent: from the run's ` + "`tool_start`" + ` frame
(the model asked) to its ` + "`tool_end`" + ` frame with the result, read from the run's
SSE stream; against the same tool called directly with the official Go SDK on a
session of its own, in the same run, rounds alternating. Driver:
` + "`bench/mcpcall`" + ` (` + "`make bench`" + `).
`

func report(r results, cfg config) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/mcpcall")
	fmt.Fprintf(&b, "%s · %d recorded rounds of each after %d unrecorded.\n\n", env.Line(), cfg.runs, cfg.warmup)
	b.WriteString("| | p50 | p99 |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| through Wisp: tool_start → tool_end | %s | %s |\n", benchkit.Msec(r.wisp.P50), benchkit.Msec(r.wisp.P99))
	fmt.Fprintf(&b, "| floor: the SDK's CallTool, direct | %s | %s |\n", benchkit.Msec(r.floor.P50), benchkit.Msec(r.floor.P99))
	fmt.Fprintf(&b, "| **ratio** | **%.2f×** | **%.2f×** |\n", r.wisp.P50/r.floor.P50, r.wisp.P99/r.floor.P99)
	return b.String()
}
