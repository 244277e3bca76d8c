package main

import (
	"context"
	"fmt"
	"time"
)

// collectTimeout is how long one frame may take before the run fails.
const collectTimeout = 5 * time.Second

// measure takes warm-up and recorded samples of Wisp's two kinds of reminders
// and of the floor's two in turn, the order rotating from one round to the next, and
// then checks that no frame is left over on either socket.
func measure(ctx context.Context, opts options, w *wisp, f *floor, res *results) error {
	steps := []func(seq int, record bool) error{
		func(_ int, record bool) error {
			s, err := w.sample(ctx, 0)
			if err != nil {
				return fmt.Errorf("wisp, due now: %w", err)
			}
			if record {
				res.now = append(res.now, s)
			}
			return nil
		},
		func(_ int, record bool) error {
			s, err := w.sample(ctx, opts.lead)
			if err != nil {
				return fmt.Errorf("wisp, set %s ahead: %w", opts.lead, err)
			}
			if !record {
				return nil
			}
			if s.margin <= 0 {
				res.lateAnswers++ // its POST was still under way when it came due
				return nil
			}
			res.ahead = append(res.ahead, s)
			return nil
		},
		func(seq int, record bool) error {
			s, err := f.sample(ctx, seq, 0)
			if err != nil {
				return fmt.Errorf("floor: sample %d: %w", seq, err)
			}
			if record {
				res.floor = append(res.floor, s)
			}
			return nil
		},
		func(seq int, record bool) error {
			s, err := f.sample(ctx, seq, opts.lead)
			if err != nil {
				return fmt.Errorf("floor, on a timer: sample %d: %w", seq, err)
			}
			if record {
				res.floorAhead = append(res.floorAhead, s)
			}
			return nil
		},
	}
	for i := -opts.warmup; i < opts.runs; i++ {
		seq := i + opts.warmup
		for k := range steps {
			if err := steps[(seq+k)%len(steps)](seq, i >= 0); err != nil {
				return err
			}
			time.Sleep(opts.pause)
		}
	}
	if err := w.reader.quiet(100 * time.Millisecond); err != nil {
		return fmt.Errorf("wisp: after the last reminder: %w", err)
	}
	if err := f.reader.quiet(100 * time.Millisecond); err != nil {
		return fmt.Errorf("floor: after the last sample: %w", err)
	}
	return nil
}

// dueAfter is the time of a reminder set lead ahead of now: the first whole
// millisecond (Wisp stores times to the millisecond) at least lead from now,
// and the same moment with now's monotonic reading, for clocks started at it.
// With lead 0 it is now itself (Wisp truncates it: a little in the past, due).
func dueAfter(now time.Time, lead time.Duration) (at, due time.Time) {
	if lead <= 0 {
		return now, now
	}
	at = now.Add(lead + time.Millisecond).Truncate(time.Millisecond)
	return at, now.Add(at.Sub(now))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
