package proactive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/clock"
	"github.com/wispapp/wisp/internal/loop"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/llm"
)

// tickTimeout bounds one tick's model call.
const tickTimeout = 2 * time.Minute

// The reasons a tick does not think.
const (
	skipNoModel   = "no-model"
	skipBusy      = "busy"
	skipRateLimit = "rate-limit"
	skipCooldown  = "cooldown"
)

// autonomy is the loop that, when enabled, asks the agent every interval whether to
// say something. One goroutine owns it; the mutex guards what Autonomy reads.
type autonomy struct {
	s    *Service
	loop *loop.Loop

	mu       sync.Mutex
	ticks    int
	lastTick time.Time
	nextTick time.Time
	lastSkip string // the last skip reason published (a repeat is not)
}

func newAutonomy(s *Service) *autonomy {
	return &autonomy{s: s, loop: loop.New()}
}

func (a *autonomy) start() { a.loop.Start(a.run) }

func (a *autonomy) stop() { a.loop.Stop() }

// wake makes the loop start its interval again under the new settings. The next
// tick's time is set here too, so an answer given right after a change shows it.
func (a *autonomy) wake() {
	set := a.s.opts.Settings()
	a.mu.Lock()
	a.nextTick = time.Time{}
	if set.AutonomyEnabled {
		a.nextTick = a.s.opts.Clock.Now().Add(set.Interval)
	}
	a.mu.Unlock()
	a.loop.Wake()
}

func (a *autonomy) run() {
	clk := a.s.opts.Clock
	for {
		set := a.s.opts.Settings()
		var fire <-chan time.Time
		var timer clock.Timer
		next := time.Time{}
		if set.AutonomyEnabled {
			timer = clk.NewTimer(set.Interval)
			fire, next = timer.C(), clk.Now().Add(set.Interval)
		}
		a.mu.Lock()
		a.nextTick = next
		a.mu.Unlock()
		select {
		case <-fire:
			a.tick()
		case <-a.loop.Woken(): // the settings changed: start the interval again
		case <-a.loop.Stopping():
		}
		if timer != nil {
			timer.Stop()
		}
		select {
		case <-a.loop.Stopping():
			return
		default:
		}
	}
}

// tick is one look at what happened.
func (a *autonomy) tick() {
	ctx, cancel := context.WithTimeout(a.s.base, tickTimeout)
	defer cancel()
	set := a.s.opts.Settings()
	now := a.s.opts.Clock.Now()
	a.mu.Lock()
	a.ticks++
	since := a.lastTick
	a.lastTick = now
	t := &tickRun{s: a.s, ctx: ctx, runID: fmt.Sprintf("auto-%d", a.ticks)}
	n := a.ticks
	a.mu.Unlock()

	reason, seen, err := a.holdBack(ctx, set, now)
	if err != nil {
		t.note(wire.AutonomyPayload{Kind: "error", Message: err.Error()})
		return
	}
	if a.skipped(t, reason) {
		return
	}
	situation, err := a.s.situation(ctx, now, since, set, seen)
	if err != nil {
		t.note(wire.AutonomyPayload{Kind: "error", Message: err.Error()})
		return
	}
	t.note(wire.AutonomyPayload{Kind: "tick", Tick: n})
	model := a.s.opts.Agent.Settings().Model
	dec, err := a.s.opts.Agent.Decide(ctx, runtime.Deliberation{Instructions: autonomyInstructions, Situation: situation}, nil)
	if rec := a.s.opts.RecordUsage; rec != nil && dec.Usage != (llm.Usage{}) {
		rec(ctx, model, dec.Usage)
	}
	if err == nil && dec.Speak {
		// Thinking takes seconds: the user may have spoken, or a reply started, meanwhile.
		if reason, _, _ := a.holdBack(ctx, set, a.s.opts.Clock.Now()); reason != "" {
			dec = runtime.Decision{Reason: "held back after thinking: " + reason, Thoughts: dec.Thoughts}
		}
	}
	t.decided(dec, err)
}

// skipped publishes a skip once per reason in a row, so a long cooldown does not
// fill the replay buffer; it reports whether the tick is skipped.
func (a *autonomy) skipped(t *tickRun, reason string) bool {
	a.mu.Lock()
	repeat := reason == a.lastSkip
	a.lastSkip = reason
	a.mu.Unlock()
	if reason != "" && !repeat {
		t.note(wire.AutonomyPayload{Kind: "skipped", Reason: reason})
	}
	return reason != ""
}

// activityCounts are what the limits look at, which the situation shows too.
type activityCounts struct {
	sent  int       // autonomy messages in the last hour
	spoke time.Time // when the user last wrote; zero if never
}

// holdBack says why this tick must not think ("" when it may): no model, a reply
// being written, the hourly limit reached, or the user spoke too recently.
func (a *autonomy) holdBack(ctx context.Context, set Settings, now time.Time) (string, activityCounts, error) {
	var seen activityCounts
	if ok, _ := a.s.opts.CanRespond(); !ok {
		return skipNoModel, seen, nil
	}
	if a.s.opts.Busy() {
		return skipBusy, seen, nil
	}
	var err error
	if seen.sent, err = a.s.opts.Store.CountMessagesSince(ctx, SourceAutonomy, now.Add(-time.Hour)); err != nil {
		return "", seen, err
	}
	if seen.sent >= set.MaxPerHour {
		return skipRateLimit, seen, nil
	}
	if seen.spoke, err = a.s.opts.Store.LastUserMessageAt(ctx); err != nil {
		return "", seen, err
	}
	if !seen.spoke.IsZero() && now.Sub(seen.spoke) < set.Cooldown {
		return skipCooldown, seen, nil
	}
	return "", seen, nil
}

// tickRun publishes one tick's envelopes under one runId, numbering them.
type tickRun struct {
	s     *Service
	ctx   context.Context
	runID string
	seq   int64
}

// note publishes an event on the autonomy stream.
func (t *tickRun) note(p wire.AutonomyPayload) { t.publish(wire.StreamAutonomy, p) }

// say publishes what the agent says on the assistant stream and delivers it.
func (t *tickRun) say(text string) {
	env := t.publish(wire.StreamAssistant, wire.AssistantPayload{Text: text, Source: SourceAutonomy})
	if err := t.s.RouteAgentEvent(t.ctx, env); err != nil {
		t.s.log.Warn("autonomy message not delivered", "err", err)
	}
}

func (t *tickRun) publish(stream string, payload any) wire.Envelope {
	t.seq++
	env := wire.NewRunEvent(t.runID, t.seq, stream, payload)
	t.s.opts.Events.Publish(env)
	return env
}

// decided publishes the agent's thoughts and choice, and what it says.
func (t *tickRun) decided(dec runtime.Decision, err error) {
	if dec.Thoughts != "" {
		t.note(wire.AutonomyPayload{Kind: "thought", Text: dec.Thoughts})
	}
	switch {
	case errors.Is(err, runtime.ErrNoDecision):
		t.note(wire.AutonomyPayload{Kind: "error", Message: err.Error()})
		t.note(wire.AutonomyPayload{Kind: "decision", Decision: "silent", Reason: "no choice was made"})
	case err != nil:
		t.note(wire.AutonomyPayload{Kind: "error", Message: err.Error()})
	case !dec.Speak:
		t.note(wire.AutonomyPayload{Kind: "decision", Decision: "silent", Reason: dec.Reason})
	default:
		t.note(wire.AutonomyPayload{Kind: "decision", Decision: "speak"})
		t.say(dec.Text)
	}
}

// RouteAgentEvent delivers the text of an agent_event on the assistant stream as a
// proactive message (seed 004), with the payload's source when it is one Wisp knows,
// else autonomy. Other envelopes are left alone.
func (s *Service) RouteAgentEvent(ctx context.Context, env wire.Envelope) error {
	if env.Type != wire.TypeAgentEvent || env.Stream != wire.StreamAssistant {
		return nil
	}
	var p wire.AssistantPayload
	if json.Unmarshal(env.Payload, &p) != nil || p.Text == "" {
		return nil
	}
	if p.Source != SourceReminder && p.Source != SourceTerminal {
		p.Source = SourceAutonomy
	}
	_, err := s.router.Deliver(ctx, Note{Text: p.Text, Source: p.Source})
	return err
}

// Autonomy reports the loop's settings and progress.
func (s *Service) Autonomy(ctx context.Context) (wire.AutonomyState, error) {
	set := s.opts.Settings()
	sent, err := s.opts.Store.CountMessagesSince(ctx, SourceAutonomy, s.opts.Clock.Now().Add(-time.Hour))
	if err != nil {
		return wire.AutonomyState{}, err
	}
	st := wire.AutonomyState{
		Enabled: set.AutonomyEnabled, IntervalMs: set.Interval.Milliseconds(), MaxPerHour: set.MaxPerHour,
		CooldownMs: set.Cooldown.Milliseconds(), SentLastHour: sent,
	}
	s.autonomy.mu.Lock()
	defer s.autonomy.mu.Unlock()
	st.LastTickAt, st.NextTickAt = unixMilli(s.autonomy.lastTick), unixMilli(s.autonomy.nextTick)
	if !set.AutonomyEnabled {
		st.NextTickAt = 0
	}
	return st, nil
}

func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
