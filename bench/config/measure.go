package main

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// collectTimeout is how long one sample may take before the run fails.
const collectTimeout = 5 * time.Second

// side is one watched config file and what a save of it must cause.
type side struct {
	name   string
	path   string
	base   map[string]any // the file's contents but for terminal.maxConcurrent
	reader *reader
	// want is the reasons of the frame a save of limit causes; nil for the
	// floor, whose arrivals are plain events.
	want func(limit int) []string

	// ms from the rename's return to the arrival, from the rename's call to
	// the arrival, and the rename itself; one each per recorded save
	fromReturn, fromCall, rename []float64
}

// measure takes warm-up and recorded saves of every side in turn, the order
// rotating from one round to the next, at least gap apart, and then checks
// that nothing is left over.
func measure(ctx context.Context, opts options, running int, sides []*side) error {
	for i := -opts.warmup; i < opts.runs; i++ {
		round := time.Now()
		seq := i + opts.warmup
		for k := range sides {
			s := sides[(seq+k)%len(sides)]
			if err := sample(ctx, s, limitAt(seq, running), i >= 0); err != nil {
				return fmt.Errorf("%s: save %d: %w", s.name, seq+1, err)
			}
		}
		if err := sleepUntil(ctx, round.Add(opts.gap)); err != nil {
			return err
		}
	}
	for _, s := range sides {
		if err := s.quiet(3 * opts.gap); err != nil {
			return fmt.Errorf("%s: after the last save: %w", s.name, err)
		}
	}
	return nil
}

// sample saves the file with limit and waits for what the save causes.
func sample(ctx context.Context, s *side, limit int, record bool) error {
	data, err := withLimit(s.base, limit)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	called, returned, err := saveAtomic(s.path, data)
	if err != nil {
		return err
	}
	at, err := s.collect(called, limit)
	if err != nil {
		return err
	}
	if record {
		s.fromReturn = append(s.fromReturn, ms(at.Sub(returned)))
		s.fromCall = append(s.fromCall, ms(at.Sub(called)))
		s.rename = append(s.rename, ms(returned.Sub(called)))
	}
	return nil
}

// collect waits for the one arrival a save causes and checks it. called is
// when the save's rename was called: an event may arrive before the rename
// returns, but not before it was called.
func (s *side) collect(called time.Time, limit int) (time.Time, error) {
	timer := time.NewTimer(collectTimeout)
	defer timer.Stop()
	select {
	case a := <-s.reader.arrivals:
		switch {
		case a.err != nil:
			return time.Time{}, a.err
		case a.at.Before(called):
			return time.Time{}, fmt.Errorf("an arrival before the save (left over from an earlier one)")
		case s.want != nil && !slices.Equal(a.reasons, s.want(limit)):
			return time.Time{}, fmt.Errorf("restart-required reasons %q, want %q", a.reasons, s.want(limit))
		}
		return a.at, nil
	case <-timer.C:
		return time.Time{}, fmt.Errorf("nothing arrived within %s of saving terminal.maxConcurrent = %d", collectTimeout, limit)
	}
}

// quiet checks that nothing more arrives within d.
func (s *side) quiet(d time.Duration) error {
	select {
	case a := <-s.reader.arrivals:
		if a.err != nil {
			return a.err
		}
		return fmt.Errorf("an arrival no save caused (reasons %q)", a.reasons)
	case <-time.After(d):
		return nil
	}
}

func sleepUntil(ctx context.Context, t time.Time) error {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
