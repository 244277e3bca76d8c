package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// targetP99Ms is the budget for POST /api/reminders (due now) → the
// proactive-message frame at a client, at p99. A reminder is human-scale; the
// budget says that nothing on the path sleeps or polls.
const targetP99Ms = 50.0

// sectionIntro is written above the proactive section of BENCHMARKS.md
// (<!-- bench:proactive:begin --> … <!-- bench:proactive:end -->) when it is new.
const sectionIntro = "## Proactive: reminder due → message at the client\n\n" +
	"A real Wisp App started inside the driver's process with its state in a scratch folder, two conversations " +
	"created through the API, and one WebSocket client on `/ws` that has sent `{\"type\":\"active-conversation\"," +
	"\"conversationId\":…}` for the second one, so that every reminder, set in the first, arrives as unread (the " +
	"common case); the client is read continuously (`status` frames are skipped). A reminder is created with " +
	"`POST /api/reminders {\"conversationId\",\"text\",\"at\"}`: Wisp saves it, broadcasts `reminder-updated` " +
	"(pending), wakes its scheduler and answers 201; when the reminder is due the scheduler delivers it in one " +
	"SQLite transaction (the message, its display row, the unread mark, the reminder marked delivered) and " +
	"broadcasts `proactive-message`, `display-message-saved`, `conversation-updated` and `reminder-updated` " +
	"(delivered) (`app/proactive/reminders.go`, `schedule.go`, `router.go`). Both clocks stop when the client " +
	"has read the `proactive-message` frame. The **full path** is a reminder with `at` = now, which fires at " +
	"once, timed from just before its POST is sent. **Wisp's own part** is a reminder set 20 ms ahead (on a " +
	"whole millisecond, as Wisp stores it), timed from its `at`: its POST has been answered by then and the " +
	"scheduler sleeps on a timer for it, so the clock spans the timer firing, the due query, the delivery " +
	"transaction, the broadcast, one frame's trip and the client's read, and nothing of the POST (a reminder " +
	"whose POST is answered only after its time would be left out, and counted). The POST's answer cannot " +
	"start that clock: Wisp wakes the scheduler before it writes the answer, so the delivery races with it. " +
	"The floor, measured in the same run, is the physical minimum of the same work: one transaction on a file " +
	"database opened with Wisp's DSN settings (WAL, `synchronous=NORMAL`, busy timeout, `_txlock=immediate`, " +
	"foreign keys) inserting one row into a table shaped like `messages`, then the same `proactive-message` " +
	"frame, byte for byte, written by a bare gorilla/websocket server in the same process and read by a client " +
	"over loopback. For the full path it is timed from the BEGIN to the read; for Wisp's own part it starts " +
	"when a bare Go timer, set for a whole millisecond 20 ms ahead like the reminder, fires, and is timed from " +
	"that millisecond, since waking at a time is part of the work. The four take turns, one sample each in a " +
	"rotating order, after unrecorded warm-ups. Target: full path p99 at most 50 ms (a " +
	"reminder is human-scale: the point is that nothing on the path sleeps or polls). Every frame is checked: " +
	"each reminder gets, in order, exactly one `reminder-updated` (pending), one `proactive-message` with its " +
	"text, `reminderId` and conversation, one `display-message-saved`, one `conversation-updated` with " +
	"`unread: true` and one `reminder-updated` (delivered, naming the message), and at the end " +
	"`GET /api/reminders` and `wisp.db` show every reminder delivered. Driver: `bench/proactive`.\n\n"

// results are every sample of one run of the driver.
type results struct {
	env         benchkit.Env
	opts        options
	frameBytes  int
	now, ahead  []wispSample  // reminders due now, and set opts.lead ahead
	floor       []floorSample // at once
	floorAhead  []floorSample // on a timer set opts.lead ahead
	lateAnswers int           // reminders set ahead whose POST was answered after their time (left out)
	listed      int           // reminders GET /api/reminders showed, all checked
	checked     int           // reminders checked in wisp.db
}

// series picks one clock out of samples, in ms.
func series[S any](samples []S, clock func(S) time.Duration) []float64 {
	out := make([]float64, len(samples))
	for i, s := range samples {
		out[i] = ms(clock(s))
	}
	return out
}

func fullOf(s wispSample) time.Duration   { return s.full }
func dueOf(s wispSample) time.Duration    { return s.due }
func floorOf(s floorSample) time.Duration { return s.total }

// markdown renders the section that goes between the markers (and on stdout).
func (r *results) markdown() string {
	var b strings.Builder
	o := r.opts
	fmt.Fprintf(&b, "%s · %d reminders due now, %d set %s ahead, and %d floor samples of each kind, taking turns, after %d warm-up of each and one probe reminder, %s apart.\n\n",
		r.env.Line(), len(r.now), len(r.ahead)+r.lateAnswers, benchkit.Msec(ms(o.lead)), len(r.floor), o.warmup, benchkit.Msec(ms(o.pause)))
	r.table(&b)
	r.context(&b)
	fmt.Fprintf(&b, "\nChecked: each of the %s reminders (%s recorded, %d warm-up, the probe) got exactly its five frames in order, its `proactive-message` with its text and `reminderId`, and nothing arrived after the last; "+
		"`GET /api/reminders` then listed nothing pending and its %d delivered reminders (it shows the 50 latest) with the messages their frames named, and `wisp.db`, read after Wisp stopped, "+
		"holds all %s delivered on time, one message and one display row each, the conversation unread. Each of the floor's %s frames arrived once, byte for byte.\n",
		benchkit.Thousands(float64(r.checked)), benchkit.Thousands(float64(len(r.now)+len(r.ahead)+r.lateAnswers)), 2*o.warmup, r.listed, benchkit.Thousands(float64(r.checked)),
		benchkit.Thousands(float64(len(r.floor)+len(r.floorAhead)+2*o.warmup)))
	fmt.Fprintf(&b, "\n%s\n", r.interpretation())
	return strings.TrimRight(b.String(), "\n")
}

func (r *results) table(b *strings.Builder) {
	b.WriteString("| Figure | wisp p50 | wisp p99 | wisp max | floor p50 | floor p99 | wisp / floor (p50) | wisp / floor (p99) | Target | Result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|:-:|---|\n")
	fl, fla := series(r.floor, floorOf), series(r.floorAhead, floorOf)
	full, own := series(r.now, fullOf), series(r.ahead, dueOf)
	fp50, fp99 := p(fl, 50), p(fl, 99)
	wp99 := p(full, 99)
	fmt.Fprintf(b, "| **Full path**: `POST /api/reminders` due now, sent → `proactive-message` read at the `/ws` client (%s reminders; floor: BEGIN → its frame read) | %s | %s | %s | %s | %s | %s | **%s** | p99 ≤ %.0f ms | %s |\n",
		benchkit.Thousands(float64(len(full))), benchkit.Msec(p(full, 50)), benchkit.Msec(wp99), benchkit.Msec(p(full, 100)),
		benchkit.Msec(fp50), benchkit.Msec(fp99), ratio(p(full, 50), fp50), ratio(wp99, fp99), targetP99Ms, benchkit.Verdict(wp99 <= targetP99Ms))
	fmt.Fprintf(b, "| **Wisp's own part**: a reminder set %s ahead, its `at` → `proactive-message` read (%s reminders; floor: a timer set for such a time → its frame read) | %s | %s | %s | %s | %s | %s | **%s** | — | — |\n",
		benchkit.Msec(ms(r.opts.lead)), benchkit.Thousands(float64(len(own))), benchkit.Msec(p(own, 50)), benchkit.Msec(p(own, 99)), benchkit.Msec(p(own, 100)),
		benchkit.Msec(p(fla, 50)), benchkit.Msec(p(fla, 99)), ratio(p(own, 50), p(fla, 50)), ratio(p(own, 99), p(fla, 99)))
	if min(len(full), len(own), len(fl), len(fla)) <= 100 {
		b.WriteString("\nWith at most 100 samples, p99 (nearest rank) is the slowest of them.\n")
	}
}

// context writes what the other clocks show: the POST's answer, the pending
// frame, the reminders set ahead, and the floor's parts.
func (r *results) context(b *strings.Builder) {
	answer := series(r.now, func(s wispSample) time.Duration { return s.answer })
	after := series(r.now, func(s wispSample) time.Duration { return s.afterAnswer })
	gap := series(r.now, func(s wispSample) time.Duration { return s.gap })
	margin := series(r.ahead, func(s wispSample) time.Duration { return s.margin })
	first := 0
	for _, v := range after {
		if v < 0 {
			first++
		}
	}
	fmt.Fprintf(b, "\nContext, reminders due now: the POST is answered (201, read by the driver) %s after it is sent at p50 (%s at p99). Wisp wakes the scheduler before it writes the answer, "+
		"so the delivery races with the answer: the `proactive-message` frame had been read before the answer in %d of %d; timed from the answer's read, it comes %s after it at p50 "+
		"(%s at p99; negative: before it). The client reads the pending `reminder-updated` frame %s before the `proactive-message` at p50 (%s at p99): "+
		"it mostly gets both at once, so that frame's read does not mark when the reminder was saved and cannot start a clock of Wisp's part either.\n",
		benchkit.Msec(p(answer, 50)), benchkit.Msec(p(answer, 99)), first, len(after), signedMsec(p(after, 50)), signedMsec(p(after, 99)),
		benchkit.Msec(p(gap, 50)), benchkit.Msec(p(gap, 99)))
	answered := fmt.Sprintf("their POST was answered at least %s before their time (%s at p50)", benchkit.Msec(slices.Min(margin)), benchkit.Msec(p(margin, 50)))
	if r.lateAnswers > 0 {
		answered = fmt.Sprintf("**%d** of their POSTs were answered only after their time, so those deliveries did not wait for it and are left out above; "+
			"the others were answered at least %s before it (%s at p50)", r.lateAnswers, benchkit.Msec(slices.Min(margin)), benchkit.Msec(p(margin, 50)))
	}
	fmt.Fprintf(b, "\nReminders set ahead: %s.\n", answered)
	commit := series(r.floor, func(s floorSample) time.Duration { return s.commit })
	frame := series(r.floor, func(s floorSample) time.Duration { return s.total - s.commit })
	late := series(r.floorAhead, func(s floorSample) time.Duration { return s.late })
	afterTimer := series(r.floorAhead, func(s floorSample) time.Duration { return s.total - s.late })
	fmt.Fprintf(b, "\nFloor: its transaction takes %s at p50 (%s at p99) from BEGIN to COMMIT's return, its %s-byte frame %s (%s) from there to the client's read. "+
		"On a timer, the timer fires %s after the millisecond it was set for at p50 (%s at p99; Go's runtime sleeps in `epoll_wait`, whose timeout is in whole "+
		"milliseconds, so an idle process wakes up to about 1 ms late), and the same transaction and frame then take %s (%s).\n",
		benchkit.Msec(p(commit, 50)), benchkit.Msec(p(commit, 99)), benchkit.Thousands(float64(r.frameBytes)), benchkit.Msec(p(frame, 50)), benchkit.Msec(p(frame, 99)),
		benchkit.Msec(p(late, 50)), benchkit.Msec(p(late, 99)), benchkit.Msec(p(afterTimer, 50)), benchkit.Msec(p(afterTimer, 99)))
}

// interpretation is the reading of the figures.
func (r *results) interpretation() string {
	full, own := series(r.now, fullOf), series(r.ahead, dueOf)
	fl, fla := series(r.floor, floorOf), series(r.floorAhead, floorOf)
	late := series(r.floorAhead, func(s floorSample) time.Duration { return s.late })
	wp99 := p(full, 99)
	met := "the target is met"
	if wp99 > targetP99Ms {
		met = "the target is **missed**"
	}
	return fmt.Sprintf("Reading: a reminder that is due is on the client's socket %s after its POST at p99 (%s at p50), so %s: nothing on the path polls, the POST wakes the scheduler. "+
		"Over the floor's one transaction and one frame, the full path adds %s at p50: it also serves the POST (HTTP, decoding, the reminder's own INSERT, "+
		"its pending frame), and its delivery is one transaction of six statements, between a due query and a next-reminder query, where the floor has one INSERT. "+
		"For a reminder set ahead, Wisp's own part adds %s at p50 over a bare timer followed by the same transaction and frame; "+
		"the timer's own lateness (%s at p50 on the floor) is in both.",
		benchkit.Msec(wp99), benchkit.Msec(p(full, 50)), met,
		signedMsec(p(full, 50)-p(fl, 50)), signedMsec(p(own, 50)-p(fla, 50)), benchkit.Msec(p(late, 50)))
}

func p(xs []float64, q float64) float64 { return benchkit.Percentile(xs, q) }

// ratio renders a/b as "2.4×" (a whole number from 100×), or "—" when b is not positive.
func ratio(a, b float64) string {
	switch {
	case b <= 0:
		return "—"
	case a/b >= 100:
		return fmt.Sprintf("%.0f×", a/b)
	}
	return fmt.Sprintf("%.1f×", a/b)
}

// signedMsec renders a duration in ms that may be negative.
func signedMsec(v float64) string {
	if v < 0 {
		return "−" + benchkit.Msec(-v)
	}
	return benchkit.Msec(v)
}
