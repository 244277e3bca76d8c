// Package terminal runs shell commands in pseudo-terminals for Wisp: the run registry
// and its limits (concurrency, duration), the PTY and process-group lifecycle, batched
// UTF-8-safe output with a scrollback ring, captured output, keystrokes and resizes,
// and the terminal-output events of seed 004.
//
// It is a leaf: it must not import app/ or runtime/. Events leave through a Sink
// function, which the app connects to the /ws hub: each run queues its events in an
// outbox (outbox.go), and one goroutine per run hands them to the sink in order, with
// no lock held, waiting for lagging viewers (flow control) on the way.
package terminal
