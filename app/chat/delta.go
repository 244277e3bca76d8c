package chat

import (
	"context"

	"github.com/wispapp/wisp/app/dialect"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/runtime/reply"
)

// resumeWithReply prepares a stream that resumes after sub.after in a dialect that
// sends the reply so far at once (the delta dialect): of the events already in the
// log, the text ones are sent once as the reply so far (a reply frame numbered with
// the newest event it reflects), the others after sub.after in order before it, and
// the final one, when the run has ended, after it.
func (sub *Subscription) resumeWithReply(r dialect.Resumer) {
	now, cancel := context.WithCancel(context.Background())
	cancel() // take what is there; never wait
	items, _, err := sub.src.next(now, 0)
	if err != nil || len(items) == 0 {
		return
	}
	sub.i = len(items)
	var (
		rep   reply.Reply
		last  int64
		final *Frame
	)
	for _, it := range items {
		if it.Final() {
			data, _ := sub.encode(it)
			final = &Frame{Seq: it.Seq, Data: append([]byte(nil), data...), Final: true}
			sub.done = true
			break
		}
		runtime.Apply(&rep, it.Event)
		last = it.Seq
		if it.Seq <= sub.after || it.Event.Type == runtime.EventTextDelta || it.Event.Type == runtime.EventCallback {
			if o, ok := sub.enc.(dialect.Observer); ok && it.Seq <= sub.after {
				o.Observe(sub.event(it))
			}
			continue // before the client's point, or in the reply frame
		}
		if data, ok := sub.encode(it); ok {
			sub.pending = append(sub.pending, Frame{Seq: it.Seq, Data: append([]byte(nil), data...)})
		}
	}
	unseenFinal := final != nil && final.Seq > sub.after
	if last > 0 && (last > sub.after || unseenFinal) {
		sub.pending = append(sub.pending, Frame{Seq: last, Data: r.Reply(nil, rep.Texts(), rep.FullText())})
	}
	if unseenFinal {
		sub.pending = append(sub.pending, *final)
	}
}
