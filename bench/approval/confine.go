package main

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
	"github.com/wispapp/wisp/confine"
)

// costs are what confinement itself takes, on the confine package directly, with a
// state folder where it goes by default (tmp/home/.local/state/wisp) and one port.
type costs struct {
	first   benchkit.Tail // a new Confiner's first start: both rulesets built, a thread restricted
	rebuild benchkit.Tail // a start after a folder above the state folder changed
	start   benchkit.Tail // /bin/true started and waited for, confined
	plain   benchkit.Tail // the same, unconfined
}

const costRounds = 30

func measureCosts(tmp string) (costs, error) {
	home := filepath.Join(tmp, "home")
	state := filepath.Join(home, ".local", "state", "wisp")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return costs{}, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return costs{}, err
	}
	defer ln.Close()
	policy := confine.Policy{Deny: []string{state}, Ports: []int{ln.Addr().(*net.TCPAddr).Port}}
	quiet := slog.New(slog.DiscardHandler)
	var first, rebuild, start, plain []float64
	for range costRounds {
		c := confine.New(confine.Options{Logger: quiet})
		c.Set(policy)
		took, err := trueOnce(c)
		c.Close()
		if err != nil {
			return costs{}, err
		}
		first = append(first, took)
	}
	c := confine.New(confine.Options{Logger: quiet})
	defer c.Close()
	c.Set(policy)
	off := confine.New(confine.Options{Mode: confine.Off, Logger: quiet})
	defer off.Close()
	if _, err := trueOnce(c); err != nil {
		return costs{}, err
	}
	for i := range 10 * costRounds {
		for _, r := range []struct {
			c   *confine.Confiner
			out *[]float64
		}{{c, &start}, {off, &plain}} {
			took, err := trueOnce(r.c)
			if err != nil {
				return costs{}, err
			}
			*r.out = append(*r.out, took)
		}
		if i%10 == 0 { // a new entry in the home folder: its rules are built again
			if err := os.Mkdir(filepath.Join(home, fmt.Sprintf("new-%d", i)), 0o700); err != nil {
				return costs{}, err
			}
			took, err := trueOnce(c)
			if err != nil {
				return costs{}, err
			}
			rebuild = append(rebuild, took)
		}
	}
	return costs{first: benchkit.TailOf(first), rebuild: benchkit.TailOf(rebuild),
		start: benchkit.TailOf(start), plain: benchkit.TailOf(plain)}, nil
}

// trueOnce starts /bin/true through c and waits for it.
func trueOnce(c *confine.Confiner) (float64, error) {
	cmd := exec.Command("/bin/true")
	begin := time.Now()
	release, err := c.Start(cmd.Start)
	if err != nil {
		return 0, err
	}
	err = cmd.Wait()
	took := time.Since(begin)
	release()
	return benchkit.Ms(took), err
}

const confineIntro = `## Confinement: an approved command's first output line, confined against not

The same measurement as the shell approval's (POST /api/approvals/{id} → the run's
SSE frame that first carries the output), on a Wisp whose agent commands run
confined (Landlock, [confinement.md](docs/confinement.md)) and on one with
confinement turned off, in the same run, rounds alternating. Target: confined ≤
1.1 × unconfined + 2 ms, at p50 and p99. Below it, what confinement itself costs,
on the ` + "`confine`" + ` package directly: the first confined start of a new
Confiner builds both rulesets (65,535 network rules and the rules of the folders
above the state folder) and restricts a thread — Wisp does this in the background
after it listens, when shell access is on or an MCP server runs a program, and never
on its start-up path; a change in a folder above the state folder builds the
filesystem rules again on the next start, and restricts a new thread: most of
that time is the kernel copying the 65,535 port rules into the new domain. The
state folders are under /tmp, which other programs change. Driver:
` + "`bench/approval`" + ` (` + "`make bench`" + `).
`

func confineReport(r results, c costs, cfg config) string {
	var b strings.Builder
	env := benchkit.InProcess("bench/approval")
	fmt.Fprintf(&b, "%s · %d recorded rounds of each after %d unrecorded · confinement: %s.\n\n", env.Line(), cfg.runs, cfg.warmup, r.level)
	b.WriteString("| | p50 | p99 |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| confined: approval → first output line in the chat | %s | %s |\n", benchkit.Msec(r.wisp.P50), benchkit.Msec(r.wisp.P99))
	fmt.Fprintf(&b, "| unconfined: the same | %s | %s |\n", benchkit.Msec(r.unconfined.P50), benchkit.Msec(r.unconfined.P99))
	fmt.Fprintf(&b, "| **ratio** | **%.2f×** | **%.2f×** |\n", r.wisp.P50/r.unconfined.P50, r.wisp.P99/r.unconfined.P99)
	fmt.Fprintf(&b, "| target ≤ 1.1× + 2 ms | %s | %s |\n", met(r.wisp.P50, r.unconfined.P50), met(r.wisp.P99, r.unconfined.P99))
	fmt.Fprintf(&b, "| `/bin/true` started and waited for, confined | %s | %s |\n", benchkit.Msec(c.start.P50), benchkit.Msec(c.start.P99))
	fmt.Fprintf(&b, "| the same, unconfined | %s | %s |\n", benchkit.Msec(c.plain.P50), benchkit.Msec(c.plain.P99))
	fmt.Fprintf(&b, "| first start of a new Confiner: rules built, thread restricted (%d) | %s | %s |\n", costRounds, benchkit.Msec(c.first.P50), benchkit.Msec(c.first.P99))
	fmt.Fprintf(&b, "| start after a new entry in the home folder: filesystem rules rebuilt (%d) | %s | %s |\n", costRounds, benchkit.Msec(c.rebuild.P50), benchkit.Msec(c.rebuild.P99))
	return b.String()
}

// met says whether confined is within the target of unconfined.
func met(confined, unconfined float64) string {
	if confined <= 1.1*unconfined+2 {
		return "met"
	}
	return "**not met**"
}
