// Package batch gathers work queued on a channel into batches, for writers that
// commit many items at once (the run log, the /ws journal): one item is waited for,
// the rest are taken only if they are already there.
//
// It imports nothing of Wisp.
package batch

// Collect returns buf emptied and refilled with first and then whatever is already
// queued on in, without waiting, until it holds max items or in is empty or closed.
func Collect[T any](in <-chan T, first T, buf []T, max int) []T {
	buf = append(buf[:0], first)
	for len(buf) < max {
		select {
		case v, ok := <-in:
			if !ok {
				return buf
			}
			buf = append(buf, v)
		default:
			return buf
		}
	}
	return buf
}
