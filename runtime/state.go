package runtime

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/wispapp/wisp/internal/jsonpatch"
)

// MaxState bounds a run's state document (its JSON) and MaxCustom an action's custom
// event's data: both go to every client of the run and into its log.
const (
	MaxState  = 256 << 10
	MaxCustom = 64 << 10
	maxOps    = 256
)

// runState is a turn's state document, which actions change through Call.Patch.
type runState struct {
	mu  sync.Mutex
	doc jsonpatch.Doc
}

// apply applies ops whole, or refuses them with the reason and keeps the state.
func (s *runState) apply(ops []jsonpatch.Op) error {
	if len(ops) == 0 || len(ops) > maxOps {
		return fmt.Errorf("a patch has 1 to %d operations, not %d", maxOps, len(ops))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.doc.ApplyLimit(ops, MaxState); err != nil {
		return fmt.Errorf("state patch: %w", err)
	}
	return nil
}

// replay applies a logged state patch (a resumed run's state before its pause).
func (s *runState) replay(ev Event) {
	if p, ok := ev.Data.(StatePatch); ok {
		s.mu.Lock()
		_ = s.doc.Apply(p.Patches) // it applied when it was logged
		s.mu.Unlock()
	}
}

// StateOf folds a run's events, in order, into the state its patches built.
func StateOf(events []Event) json.RawMessage {
	var s runState
	for _, ev := range events {
		s.replay(ev)
	}
	b, _ := json.Marshal(&s.doc)
	return b
}
