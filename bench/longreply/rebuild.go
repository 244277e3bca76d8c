package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/runtime"
)

// uncompactedLogs reads each run's compacted log and rebuilds its rows as
// they were written while the run streamed: one text_delta row per token,
// numbered, with the JSON Wisp logs a delta with (runtime.TextDelta). The
// deltas must be the reply's chunks, in order.
func uncompactedLogs(ctx context.Context, path string, runIDs []string, tokens int, res *results) ([]store.RunEvent, error) {
	st, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	chunks := words(tokens)
	var out []store.RunEvent
	for _, id := range runIDs {
		rows, err := st.RunEvents(ctx, id, 0, 0)
		if err != nil {
			return nil, err
		}
		var deltas []string
		for _, r := range rows {
			expanded, err := expand(r)
			if err != nil {
				return nil, fmt.Errorf("run %s: %w", id, err)
			}
			for _, e := range expanded {
				if e.Type == string(runtime.EventTextDelta) {
					var d runtime.TextDelta
					_ = json.Unmarshal(e.Data, &d)
					deltas = append(deltas, d.Text)
				}
			}
			out = append(out, expanded...)
		}
		if strings.Join(deltas, "\x00") != strings.Join(chunks, "\x00") {
			res.problem("run %s: the compacted log's deltas (%d) are not the reply's chunks (%d)", id, len(deltas), len(chunks))
		}
		res.checked++
	}
	return out, nil
}

// expand turns one logged row back into the rows it replaced: a merged
// stretch {text, cuts} into one row per cut; any other row as it is.
func expand(r store.RunEvent) ([]store.RunEvent, error) {
	var m struct {
		Text string `json:"text"`
		Cuts []int  `json:"cuts"`
	}
	if r.Type != string(runtime.EventTextDelta) && r.Type != string(runtime.EventThinking) {
		return []store.RunEvent{r}, nil
	}
	if err := json.Unmarshal(r.Data, &m); err != nil {
		return nil, fmt.Errorf("row %d: %w", r.Seq, err)
	}
	if m.Cuts == nil {
		return []store.RunEvent{r}, nil
	}
	out := make([]store.RunEvent, 0, len(m.Cuts))
	text := m.Text
	for i, n := range m.Cuts {
		if n > len(text) {
			return nil, fmt.Errorf("row %d: cuts pass the end of its text", r.Seq)
		}
		var v any = runtime.TextDelta{Text: text[:n]}
		if r.Type == string(runtime.EventThinking) {
			v = runtime.Thinking{Text: text[:n]}
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		seq := r.Seq - int64(len(m.Cuts)-1-i)
		out = append(out, store.RunEvent{RunID: r.RunID, Seq: seq, Type: r.Type, Data: data, Time: r.Time})
		text = text[n:]
	}
	return out, nil
}
