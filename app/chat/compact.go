package chat

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// A run's log is written one event per token, so a client can resume anywhere while
// the run streams. Once the run has ended, each stretch of consecutive text (or
// thinking) deltas is folded into one event numbered like the last of them, which
// keeps the stretch's cut points: a client resuming from a number inside the stretch
// gets exactly the text after it, so numbers stay meaningful, and the final event
// keeps its number.

// mergedDelta is the logged data of a merged stretch: its text, and the length in
// bytes of each delta it replaced, in order.
type mergedDelta struct {
	Text string `json:"text"`
	Cuts []int  `json:"cuts"`
	// Complete marks the thinking event that closes a step's reasoning: it never
	// joins a stretch.
	Complete bool `json:"complete,omitempty"`
}

// mergeable reports whether a logged event may join a stretch, and its deltas.
func mergeable(r store.RunEvent) (mergedDelta, bool) {
	switch runtime.EventType(r.Type) {
	case runtime.EventTextDelta, runtime.EventThinking:
	default:
		return mergedDelta{}, false
	}
	var d mergedDelta
	if err := json.Unmarshal(r.Data, &d); err != nil || d.Complete {
		return mergedDelta{}, false
	}
	if d.Cuts == nil {
		d.Cuts = []int{len(d.Text)} // one delta
	}
	return d, true
}

// compactLog finds the stretches of rows (one run's log, in order) worth merging:
// two or more consecutive rows of deltas of one type whose numbers follow on.
func compactLog(rows []store.RunEvent) []store.Merged {
	var out []store.Merged
	for i := 0; i < len(rows); {
		first, ok := mergeable(rows[i])
		j := i + 1
		if ok {
			text := []byte(first.Text) // appended to: linear in the stretch's length
			cuts := first.Cuts
			for ; j < len(rows) && rows[j].Type == rows[i].Type; j++ {
				next, ok := mergeable(rows[j])
				// A row may already stand for a stretch (the log writer merges the
				// deltas of one commit): it follows on when its first number does.
				if !ok || rows[j].Seq-int64(len(next.Cuts)) != rows[j-1].Seq {
					break
				}
				text = append(text, next.Text...)
				cuts = append(cuts, next.Cuts...)
			}
			if j-i > 1 {
				last := rows[j-1]
				data, _ := json.Marshal(mergedDelta{Text: string(text), Cuts: cuts})
				out = append(out, store.Merged{From: rows[i].Seq,
					Row: store.RunEvent{RunID: last.RunID, Seq: last.Seq, Type: last.Type, Data: data, Time: last.Time}})
			}
		}
		i = j
	}
	return out
}

// cutsOf returns the cut points of a merged delta's logged data (nil for one delta).
func cutsOf(data []byte) []int {
	if !bytes.Contains(data, []byte(`"cuts"`)) {
		return nil
	}
	var d mergedDelta
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	return d.Cuts
}

// trimmed is a merged delta as a client that saw event `after` needs it: only the
// text of the deltas after that one. The item stands for the numbers
// Seq-len(Cuts)+1 .. Seq.
func (it Item) trimmed(after int64) Item {
	first := it.Seq - int64(len(it.Cuts)) + 1
	if after < first {
		return it
	}
	skip := 0
	for _, n := range it.Cuts[:min(after-first+1, int64(len(it.Cuts)))] {
		skip += n
	}
	switch d := it.Event.Data.(type) {
	case runtime.TextDelta:
		d.Text = tail(d.Text, skip)
		it.Event.Data = d
	case runtime.Thinking:
		d.Text = tail(d.Text, skip)
		it.Event.Data = d
	}
	return it
}

func tail(s string, skip int) string {
	if skip >= len(s) {
		return ""
	}
	return s[skip:]
}

// compactRun folds the log of a run that has ended. A failure leaves the log as it
// was (still correct, only larger); the next start tries again.
func (s *Service) compactRun(ctx context.Context, runID string) {
	rows, err := s.store.RunEvents(ctx, runID, 0, 0)
	if err == nil {
		err = s.store.CompactRun(ctx, runID, compactLog(rows))
	}
	if err != nil && ctx.Err() == nil {
		s.log.Warn("compact run log", "run", runID, "err", err)
	}
}

// compactBacklog folds, in the background, the logs of runs that ended before this
// start and were not compacted; Stop ends it between two runs.
func (s *Service) compactBacklog() {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ids, err := s.store.RunsToCompact(s.base, 0)
		if err != nil {
			s.log.Warn("list runs to compact", "err", err)
		}
		for _, id := range ids {
			if s.base.Err() != nil {
				return
			}
			s.compactRun(s.base, id)
		}
	}()
}
