package terminal

import "time"

// Info is what the API shows about a run.
type Info struct {
	RunID         string `json:"runId"`
	Command       string `json:"command"`
	ClientID      string `json:"clientId"`
	Agent         bool   `json:"agent"`
	Captured      bool   `json:"captured"`
	Status        Status `json:"status"`
	ExitCode      *int   `json:"exitCode"`
	Error         string `json:"error"` // "" unless the shell could not be started
	StartedAt     int64  `json:"startedAt"`
	EndedAt       *int64 `json:"endedAt"`
	DurationMs    int64  `json:"durationMs"`
	MaxDurationMs int64  `json:"maxDurationMs"`
	Cols          int    `json:"cols"`
	Rows          int    `json:"rows"`
}

// Snapshot is a run's Info with its scrollback. LastSeq is the number of the last
// event sent before the snapshot: a client applies only live events after it.
type Snapshot struct {
	Info
	LastSeq             int64   `json:"lastSeq"`
	ScrollbackTruncated bool    `json:"scrollbackTruncated"`
	Scrollback          []Chunk `json:"scrollback"`
}

// Result is the outcome of a captured run (the captureOutput answer).
type Result struct {
	OK            bool   `json:"ok"`
	RunID         string `json:"runId"`
	Command       string `json:"command"`
	ExitCode      int    `json:"exitCode"`
	Stdout        string `json:"stdout"`
	Stderr        string `json:"stderr"`
	TimedOut      bool   `json:"timedOut"`
	Truncated     bool   `json:"truncated"`
	MaxDurationMs int64  `json:"maxDurationMs"`
	DurationMs    int64  `json:"durationMs"`
	Error         string `json:"error,omitempty"`
}

// Info describes the run now.
func (r *Run) Info() Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.infoLocked()
}

func (r *Run) infoLocked() Info {
	in := Info{
		RunID: r.id, Command: r.spec.Command, ClientID: r.spec.Owner, Agent: r.spec.Owner == "",
		Captured: r.spec.Capture, Status: r.status, Error: r.errMsg,
		StartedAt: r.started.UnixMilli(), DurationMs: r.durationLocked().Milliseconds(),
		MaxDurationMs: r.m.opts.MaxDuration.Milliseconds(), Cols: r.cols, Rows: r.rows,
	}
	if r.status != StatusRunning {
		code, ended := r.exitCode, r.ended.UnixMilli()
		in.ExitCode, in.EndedAt = &code, &ended
	}
	return in
}

func (r *Run) durationLocked() time.Duration {
	if r.ended.IsZero() {
		return time.Since(r.started)
	}
	return r.ended.Sub(r.started)
}

// Snapshot returns the run's Info and scrollback, consistent with its event numbers.
func (r *Run) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Snapshot{
		Info: r.infoLocked(), LastSeq: r.seq,
		ScrollbackTruncated: r.scroll.truncated, Scrollback: r.scroll.snapshot(),
	}
}

// Result is the run's outcome; the output is empty unless it was started with Capture.
func (r *Run) Result() Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	timedOut := r.status == StatusTimeout
	return Result{
		OK: r.status == StatusExited && r.exitCode == 0, RunID: r.id, Command: r.spec.Command,
		ExitCode: r.exitCode, Stdout: string(r.stdout.data), Stderr: string(r.stderr.data),
		TimedOut: timedOut, Truncated: r.stdout.truncated || r.stderr.truncated,
		MaxDurationMs: r.m.opts.MaxDuration.Milliseconds(), DurationMs: r.durationLocked().Milliseconds(),
		Error: r.errMsg,
	}
}
