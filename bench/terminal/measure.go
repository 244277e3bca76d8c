package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

// source is a command whose output is streamed, and what it writes.
type source struct {
	name     string // for the report
	command  string
	bytes    int64 // what the command writes
	newlines int64 // how many of them are "\n" (ONLCR adds a "\r" to each)
}

func zeroSource(mib int) source {
	return source{name: "zeros", command: fmt.Sprintf("head -c %dM /dev/zero", mib), bytes: int64(mib) << 20}
}

func linesSource(mib int) source {
	n := int64(mib) << 20
	return source{name: "newline-dense", command: fmt.Sprintf("yes | head -c %dM", mib), bytes: n, newlines: n / 2}
}

// mode is how a run's terminal treats output.
type mode struct {
	name    string
	capture bool // captureOutput: true; OPOST off on the PTY (and raw output on the floor's)
}

var (
	interactive = mode{name: "interactive (OPOST|ONLCR on)", capture: false}
	captured    = mode{name: "captureOutput (OPOST off)", capture: true}
)

// expected is what the terminal delivers of src in mode m.
func (src source) expected(m mode) int64 {
	if m.capture {
		return src.bytes
	}
	return src.bytes + src.newlines
}

// tputCase is one row of the throughput table and its samples (MB/s of source
// bytes, 1 MB = 10^6 bytes).
type tputCase struct {
	src  source
	mode mode

	wisp, floor       []float64  // MB/s
	wispCPU, floorCPU []cpuTimes // CPU time of each run
	wispWall          []time.Duration
	floorWall         []time.Duration
	decodeShare       []float64 // client time decoding / Wisp run time
	wirePerByte       float64   // frame bytes on the socket per source byte
	framesPerRun      float64
}

// results are every sample of one run of the driver.
type results struct {
	env env
	cfg config

	cases []*tputCase

	echo []*echoCase // keystroke → echo, by pause before the keystroke

	probe *probeResult // an encoding/json client on the zero source

	codec []codecCost // JSON encode and decode alone

	checked  int      // Wisp runs whose stream was checked
	problems []string // correctness failures
}

type bench struct {
	cfg config
	w   *wisp
	res *results
}

func (b *bench) problem(format string, a ...any) {
	p := fmt.Sprintf(format, a...)
	fmt.Fprintln(os.Stderr, "CHECK FAILED:", p)
	b.res.problems = append(b.res.problems, p)
}

// runDeadline bounds a single run's wait: far beyond any sane figure, so that
// a stuck stream fails the harness instead of hanging it.
const runDeadline = 10 * time.Minute

// wispRun streams src through one Wisp run in mode m to the socket and
// returns the time from the POST to the exit event. The stream is checked:
// events numbered without a gap, exactly the expected stdout bytes, no
// stderr, exit code 0, and for a captured run an answer that agrees. When the
// socket fails during the run, it returns what had arrived and when it failed
// along with the error.
func (b *bench) wispRun(ctx context.Context, src source, m mode) (time.Duration, *runStream, error) {
	ws := b.w.ws
	ws.resetCounters()
	type answer struct {
		a   runAnswer
		err error
	}
	answers := make(chan answer, 1)
	start := time.Now()
	go func() {
		a, err := b.w.startRun(ctx, src.command, m.capture)
		if err != nil {
			ws.interrupt() // no start event will come: stop waiting for one
		}
		answers <- answer{a, err}
	}()
	deadline := start.Add(runDeadline)
	// Only one run is alive at a time: the first start event with this
	// command is this run's.
	var runID string
	s := &runStream{}
	for runID == "" {
		f, err := ws.next(deadline)
		if err != nil {
			select {
			case a := <-answers:
				if a.err != nil {
					return 0, nil, fmt.Errorf("wisp: %w", a.err)
				}
			default:
			}
			return 0, nil, fmt.Errorf("wisp: waiting for the start of %q: %w", src.command, err)
		}
		switch {
		case f.Type == "terminal-output" && f.Event == "start" && f.Command == src.command:
			runID, s.runID = f.RunID, f.RunID
			s.observe(f)
		case f.Type == "error":
			return 0, nil, fmt.Errorf("wisp: the hub answered with an error: %s", f.Message)
		}
	}
	if err := ws.follow(runID, s, deadline); err != nil {
		return time.Since(start), s, fmt.Errorf("wisp: run %s (%s, %s): after %d stdout events (%d bytes of %d) in %.1f s: %w",
			runID, src.command, m.name, s.stdoutEvents, s.stdout, src.expected(m), time.Since(start).Seconds(), err)
	}
	took := time.Since(start)
	var ans answer
	select {
	case ans = <-answers:
	case <-time.After(30 * time.Second):
		return 0, nil, fmt.Errorf("wisp: no answer to POST /api/terminal/run 30 s after the exit event")
	}
	if ans.err != nil {
		return 0, nil, fmt.Errorf("wisp: %w", ans.err)
	}
	b.res.checked++
	want := src.expected(m)
	switch {
	case s.failure != "":
		b.problem("run %s (%s, %s): %s", runID, src.command, m.name, s.failure)
	case s.stdout != want:
		b.problem("run %s (%s, %s): %d stdout bytes on the socket, want %d", runID, src.command, m.name, s.stdout, want)
	case s.stderr != 0:
		b.problem("run %s (%s, %s): %d stderr bytes", runID, src.command, m.name, s.stderr)
	case s.exitCode != 0:
		b.problem("run %s (%s, %s): exit code %d", runID, src.command, m.name, s.exitCode)
	case ans.a.RunID != runID:
		b.problem("run %s (%s): the POST answered runId %q", runID, src.command, ans.a.RunID)
	case m.capture && (!ans.a.OK || int64(len(ans.a.Stdout)) != min(want, 128<<10)):
		b.problem("run %s (%s): captured answer ok=%v with %d stdout bytes, want %d", runID, src.command, ans.a.OK, len(ans.a.Stdout), min(want, 128<<10))
	}
	return took, s, nil
}

// floorRun streams src through a bare PTY in mode m and checks the count.
// Its samples in a CPU profile carry side=floor.
func (b *bench) floorRun(ctx context.Context, src source, m mode) (time.Duration, error) {
	var n int64
	var took time.Duration
	var err error
	pprof.Do(ctx, pprof.Labels("side", "floor"), func(context.Context) {
		n, took, err = floorThroughput(src.command, m.capture)
	})
	if err != nil {
		return 0, err
	}
	if want := src.expected(m); n != want {
		return 0, fmt.Errorf("floor: %q read %d bytes, want %d", src.command, n, want)
	}
	return took, nil
}

// warmUp runs a small version of each case once through Wisp and the floor,
// unrecorded: the first spawn, page cache and allocator growth are paid here.
func (b *bench) warmUp(ctx context.Context) error {
	for _, src := range []source{zeroSource(8), linesSource(2)} {
		for _, m := range []mode{interactive, captured} {
			if _, _, err := b.wispRun(ctx, src, m); err != nil {
				return err
			}
			if _, err := b.floorRun(ctx, src, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// throughput measures every case cfg.runs times. Repetitions are interleaved:
// each repetition goes through every case, floor and Wisp back to back, the
// first of the two alternating from one repetition to the next.
func (b *bench) throughput(ctx context.Context) error {
	for rep := range b.cfg.runs {
		for _, c := range b.res.cases {
			mb := float64(c.src.bytes) / 1e6
			var wt, ft time.Duration
			var wc, fc cpuTimes
			var s *runStream
			wispFirst := rep%2 == 0
			for turn := range 2 {
				var err error
				cpu := cpuNow()
				if (turn == 0) == wispFirst {
					wt, s, err = b.wispRun(ctx, c.src, c.mode)
					wc = cpu.since()
				} else {
					ft, err = b.floorRun(ctx, c.src, c.mode)
					fc = cpu.since()
				}
				if err != nil {
					return err
				}
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			ws := b.w.ws
			c.wisp = append(c.wisp, mb/wt.Seconds())
			c.floor = append(c.floor, mb/ft.Seconds())
			c.wispCPU, c.floorCPU = append(c.wispCPU, wc), append(c.floorCPU, fc)
			c.wispWall, c.floorWall = append(c.wispWall, wt), append(c.floorWall, ft)
			c.decodeShare = append(c.decodeShare, ws.decode.Seconds()/wt.Seconds())
			c.wirePerByte = float64(ws.wire) / float64(c.src.bytes)
			c.framesPerRun = float64(s.stdoutEvents)
			fmt.Fprintf(os.Stderr, "run %d/%d %-14s %-29s wisp %6.1f MB/s · floor %6.1f MB/s · %.2f× · %d stdout events, %.0f MB on the wire, client decode %.1f s (%.0f%% of the run) · CPU s (this process + command): wisp %.1f + %.1f in %.1f s, floor %.1f + %.1f in %.1f s\n",
				rep+1, b.cfg.runs, c.src.name, c.mode.name, mb/wt.Seconds(), mb/ft.Seconds(), ft.Seconds()/wt.Seconds(),
				s.stdoutEvents, float64(ws.wire)/1e6, ws.decode.Seconds(), 100*ws.decode.Seconds()/wt.Seconds(),
				wc.self.Seconds(), wc.children.Seconds(), wt.Seconds(), fc.self.Seconds(), fc.children.Seconds(), ft.Seconds())
		}
	}
	return nil
}

// lineEvery is how many keystrokes go into a line before Enter: cat's line
// (the canonical-mode buffer, 4095 characters) must never fill.
const lineEvery = 200

// echoCase is one row of the keystroke table: keystrokes typed a fixed pause
// after the previous echo arrived.
type echoCase struct {
	pause       time.Duration
	wisp, floor []float64 // ms, keystroke → its echo
}

// keystrokes times keystroke → echo through Wisp (a `cat` run, typed into over
// /ws) and through a bare PTY running cat, one sample of each in turn, each
// keystroke typed a fixed pause after the previous echo of the same side came
// back: first cfg.gap, then cfg.pause, each after warm-up samples.
func (b *bench) keystrokes(ctx context.Context) error {
	ws := b.w.ws
	ans, err := b.w.startRun(ctx, "cat", false)
	if err != nil {
		return err
	}
	runID := ans.RunID
	floor, err := startEchoFloor()
	if err != nil {
		_ = b.w.kill(ctx, runID)
		return err
	}
	defer floor.stop()
	s := &runStream{}
	typed := 0
	var wispEcho, floorEcho time.Time // when the previous echo of each came back
	wispSample := func(c byte) (time.Duration, error) {
		before := s.stdout
		start := time.Now()
		if err := ws.send(map[string]string{"type": "terminal-input", "runId": runID, "data": string(c)}); err != nil {
			return 0, err
		}
		took, err := ws.readStdout(runID, s, 1, start, time.Now().Add(10*time.Second))
		if err != nil {
			return 0, err
		}
		wispEcho = start.Add(took)
		if s.stdout != before+1 || s.last != string(c) {
			b.problem("keystroke %q: %d bytes came back, the last event's data %q", c, s.stdout-before, s.last)
		}
		return took, nil
	}
	floorSample := func(c byte) (time.Duration, error) {
		start := time.Now()
		took, err := floor.roundTrip(c)
		floorEcho = start.Add(took)
		return took, err
	}
	enter := func() error {
		if err := ws.send(map[string]string{"type": "terminal-input", "runId": runID, "data": "\r"}); err != nil {
			return err
		}
		// The echo of Enter ("\r\n"), then cat's copy of the line.
		if _, err := ws.readStdout(runID, s, int64(2+typed+2), time.Now(), time.Now().Add(10*time.Second)); err != nil {
			return err
		}
		wispEcho = time.Now()
		err := floor.newline(typed)
		floorEcho = time.Now()
		return err
	}
	for _, pause := range []time.Duration{b.cfg.gap, b.cfg.pause} {
		ec := &echoCase{pause: pause}
		b.res.echo = append(b.res.echo, ec)
		for i := -b.cfg.echoWarmup; i < b.cfg.echoSamples; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if typed == lineEvery {
				if err := enter(); err != nil {
					return fmt.Errorf("keystrokes: Enter: %w", err)
				}
				typed = 0
			}
			c := byte('a' + typed%26)
			time.Sleep(time.Until(wispEcho.Add(pause)))
			wt, err := wispSample(c)
			if err != nil {
				return fmt.Errorf("keystrokes: %w", err)
			}
			time.Sleep(time.Until(floorEcho.Add(pause)))
			ft, err := floorSample(c)
			if err != nil {
				return fmt.Errorf("keystrokes: %w", err)
			}
			typed++
			if i >= 0 {
				ec.wisp = append(ec.wisp, ms(wt))
				ec.floor = append(ec.floor, ms(ft))
			}
		}
	}
	if len(s.echo) > 0 && s.echo[0] != 'a' {
		b.problem("keystrokes: the first echo was %q, want \"a\"", s.echo[0])
	}
	if err := b.w.kill(ctx, runID); err != nil {
		return fmt.Errorf("keystrokes: kill: %w", err)
	}
	if err := ws.follow(runID, s, time.Now().Add(30*time.Second)); err != nil {
		return fmt.Errorf("keystrokes: waiting for the exit after kill: %w", err)
	}
	b.res.checked++
	if s.failure != "" {
		b.problem("keystroke run %s: %s", runID, s.failure)
	} else if s.exitCode != 128+15 {
		b.problem("keystroke run %s: exit code %d after kill, want 143 (SIGTERM)", runID, s.exitCode)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// probeResult is what happened to a client that decodes every frame with
// encoding/json during one run of the zero source.
type probeResult struct {
	dropped   bool   // the hub closed the socket (1013)
	closeText string // its close reason
	got, want int64  // stdout bytes decoded, and the run's total
	after     time.Duration
	mbps      float64 // when it kept up
}

// jsonClientProbe replaces the socket with one that decodes every frame with
// encoding/json (--client=json), and streams one interactive run of the zero
// source to it: does it keep up? A drop by the hub is recorded, not a
// failure, and the run is then killed. It comes last.
func (b *bench) jsonClientProbe(ctx context.Context) error {
	if err := b.w.reconnect(ctx, false); err != nil {
		return err
	}
	src := zeroSource(b.cfg.zeroMiB)
	took, s, err := b.wispRun(ctx, src, interactive)
	p := &probeResult{want: src.expected(interactive), after: took}
	b.res.probe = p
	if s != nil {
		p.got = s.stdout
	}
	var dropped *droppedError
	switch {
	case err == nil:
		p.mbps = float64(src.bytes) / 1e6 / took.Seconds()
	case errors.As(err, &dropped):
		p.dropped, p.closeText = true, dropped.text
		// The run goes on without a client: end it rather than let it
		// compete with what follows (409 if it has already ended).
		_ = b.w.kill(ctx, s.runID)
	default:
		return err
	}
	return nil
}
