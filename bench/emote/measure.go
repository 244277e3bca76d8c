package main

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// collectTimeout is how long one sample may take before the run fails.
const collectTimeout = 5 * time.Second

// side is one server and the way a sample triggers its broadcast.
type side struct {
	name    string
	fan     *fan
	trigger func(context.Context) error

	each   []float64 // ms from the trigger to each client's arrival
	last   []float64 // ms from the trigger to the last client's arrival, one per sample
	answer []float64 // ms the trigger itself took (the POST's answer)
}

// measure takes warm-up and recorded samples of every side in turn, the
// order rotating from one round to the next, and then checks that no frame
// is left over.
func measure(ctx context.Context, cfg config, sides []*side) error {
	for i := -cfg.warmup; i < cfg.runs; i++ {
		for k := range sides {
			s := sides[(i+cfg.warmup+k)%len(sides)]
			if err := sample(ctx, s, i >= 0); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			time.Sleep(cfg.pause)
		}
	}
	for _, s := range sides {
		if err := s.fan.quiet(100 * time.Millisecond); err != nil {
			return fmt.Errorf("%s: after the last sample: %w", s.name, err)
		}
	}
	return nil
}

// sample triggers one broadcast and waits until every client has it.
func sample(ctx context.Context, s *side, record bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	if err := s.trigger(ctx); err != nil {
		return err
	}
	answered := time.Since(start)
	lat, err := s.fan.collect(start, collectTimeout)
	if err != nil {
		return err
	}
	if record {
		s.each = append(s.each, lat...)
		s.last = append(s.last, slices.Max(lat))
		s.answer = append(s.answer, ms(answered))
	}
	return nil
}
