// Command proactive is Wisp's proactive message benchmark: the time from
// creating a reminder that is due now to its proactive-message frame at a /ws
// client, next to the physical floor of the same work (one SQLite transaction
// and one WebSocket frame) measured in the same run.
//
// It starts a real Wisp App in this process on 127.0.0.1 with its state in a
// scratch folder, creates two conversations through the API (the reminders'
// one and another) and connects one WebSocket client to /ws (ready once its
// first status frame came), which sends
//
//	{"type":"active-conversation","conversationId":"<the other one>"}
//
// so that every reminder arrives as unread, the common case. One sample is one
// reminder,
//
//	POST /api/reminders {"conversationId":…,"text":"bench reminder NNNNN","at":"<RFC 3339>"}
//
// The API saves it, broadcasts reminder-updated (pending), wakes the scheduler
// and answers 201. A reminder whose time has come fires at once; one set ahead,
// when the scheduler's timer for it fires. The scheduler delivers it in one
// SQLite transaction (message, display row, unread mark, reminder marked
// delivered) and broadcasts proactive-message, display-message-saved,
// conversation-updated and reminder-updated (delivered)
// (app/proactive/reminders.go, schedule.go, router.go). Two clocks stop when
// the client has read the proactive-message frame:
//
//   - the full path: a reminder with at = now, from just before its POST is
//     sent;
//   - Wisp's own part: a reminder set --lead ahead (20 ms, on a whole
//     millisecond, as Wisp stores it), from its time; its POST has been answered
//     and the scheduler is asleep on its timer by then, so the clock spans the
//     timer firing, the due query, the delivery transaction, the broadcast, one
//     frame's trip and the client's read, and nothing of the POST. A reminder
//     whose POST was answered only after its time is counted and left out.
//
// Neither the POST's answer nor the pending frame can start the second clock:
// Wisp wakes the scheduler before it writes the answer, so the delivery races
// with it (the frame often comes first), and the client usually reads the
// pending frame together with the message, so its read does not mark when the
// reminder was saved. Both are reported for context. After each reminder the
// driver waits, untimed, for its remaining frames, so that samples do not
// overlap.
//
// The floor is the physical minimum of the same work, in this process: one
// transaction on a file database opened with app/store's DSN settings (WAL,
// synchronous=NORMAL, busy timeout, immediate transactions, foreign keys),
// inserting one row into a table shaped like messages (with its indexes and
// its conversation's foreign key), committed; then the proactive-message
// frame Wisp sent for a probe reminder, byte for byte, written as one text
// frame by a bare gorilla/websocket server on its own loopback listener and
// read by a client of its own. It is taken in two kinds, one for each of
// Wisp's clocks: at once, timed from the BEGIN to the client's read; and when a
// bare Go timer set for a whole millisecond --lead ahead fires, timed from that
// millisecond, since waking at a time is part of a reminder's work (an idle Go
// process wakes up to about a millisecond late: its runtime sleeps in
// epoll_wait, whose timeout is in whole milliseconds). Wisp's two kinds of
// reminders and the floor's two kinds take turns, one sample each in a
// rotating order, after unrecorded warm-up samples.
//
// Every frame is checked: each reminder gets, in order, exactly one
// reminder-updated (pending), one proactive-message with its text, reminderId,
// conversation and late=false, one display-message-saved, one
// conversation-updated with unread=true and one reminder-updated (delivered,
// with the message's id); each floor sample gets exactly its frame; nothing is
// left over at the end. GET /api/reminders then lists no pending reminder and
// each one it shows as delivered with the message its frame named; after Wisp
// stops, wisp.db is read to check the same for every reminder.
//
// The result is printed on stdout and, with --out, written between the
// "<!-- bench:proactive:begin -->" and "<!-- bench:proactive:end -->" markers
// of BENCHMARKS.md; the rest of that file is kept. The exit status is non-zero
// when the harness cannot measure or a check fails; a missed target is
// printed but is not a failure.
//
// Usage (see `make bench`):
//
//	go run ./bench/proactive --out BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

type options struct {
	runs, warmup int           // recorded samples per series, and unrecorded ones before them
	lead         time.Duration // how far ahead the second series' reminders are set
	pause        time.Duration // after every sample
	out, profile string
}

func main() {
	var opts options
	flag.IntVar(&opts.runs, "runs", 500, "recorded reminders of each kind (due now, set ahead) and samples of the floor")
	flag.IntVar(&opts.warmup, "warmup", 30, "unrecorded samples of each before them")
	flag.DurationVar(&opts.lead, "lead", 20*time.Millisecond, "how far ahead the reminders timed from their due time are set (more than a POST takes)")
	flag.DurationVar(&opts.pause, "pause", 2*time.Millisecond, "pause after every sample, once its last frame came")
	flag.StringVar(&opts.out, "out", "", "Markdown file whose proactive section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&opts.profile, "cpuprofile", "", "write a CPU profile of the whole run (Wisp, floor and clients) to this file")
	flag.Parse()
	if opts.runs < 1 || opts.warmup < 0 || opts.pause < 0 || opts.lead < 5*time.Millisecond || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	benchkit.Main("proactive", opts.profile, func(ctx context.Context, tmp string) error { return run(ctx, opts, tmp) })
}

func run(ctx context.Context, opts options, tmp string) error {
	w, err := startWisp(ctx, filepath.Join(tmp, "wisp"))
	if err != nil {
		return err
	}
	defer w.stop()
	// The probe is one more reminder, before everything else: its frame is the
	// one the floor sends.
	probe, err := w.sample(ctx, 0)
	if err != nil {
		return fmt.Errorf("wisp: probe reminder: %w", err)
	}
	f, err := startFloor(ctx, filepath.Join(tmp, "floor"), probe.frame, w.prefix)
	if err != nil {
		return err
	}
	defer f.stop()

	res := &results{env: benchkit.InProcess("bench/proactive"), opts: opts, frameBytes: len(probe.frame)}
	fmt.Fprintf(os.Stderr, "proactive: %d reminders due now, %d set %s ahead and %d floor samples, after %d warm-up each...\n",
		opts.runs, opts.runs, opts.lead, opts.runs, opts.warmup)
	if err := measure(ctx, opts, w, f, res); err != nil {
		return err
	}
	if err := w.checkListed(ctx); err != nil {
		return fmt.Errorf("wisp: GET /api/reminders: %w", err)
	}
	w.stop()
	if res.checked, err = w.checkDB(ctx); err != nil {
		return fmt.Errorf("wisp: wisp.db: %w", err)
	}
	res.listed = w.listed

	return benchkit.Publish(opts.out, "proactive", sectionIntro, res.markdown())
}
