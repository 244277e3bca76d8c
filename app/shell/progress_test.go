package shell

import (
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
	"github.com/wispapp/wisp/terminal"
)

// patches records a call's state patches, refusing the first refuse of them.
type patches struct {
	got    [][]jsonpatch.Op
	refuse int
}

func (p *patches) call() runtime.Call {
	return runtime.Call{ID: "call_1", PatchFunc: func(ops ...jsonpatch.Op) error {
		if p.refuse > 0 {
			p.refuse--
			return errors.New("over MaxState")
		}
		p.got = append(p.got, ops)
		return nil
	}}
}

// Every patch after the start tests that /shell is still this call's; a command
// whose start was refused patches nothing more (it would change another's).
func TestProgressPatchesOnlyItsOwnShell(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	var ok patches
	p := &progress{call: ok.call(), log: quiet, started: time.Now()}
	p.start("make", "run-1")
	p.tick("a\nlast one\n")
	p.end(terminal.Result{ExitCode: 2, DurationMs: 40}, "a\nlast one\n", false)
	if len(ok.got) != 3 {
		t.Fatalf("%d patches, want start, tick, end", len(ok.got))
	}
	for _, ops := range ok.got[1:] {
		if first := ops[0]; first.Op != "test" || first.Path != "/shell/callId" || string(first.Value) != `"call_1"` {
			t.Fatalf("a later patch does not test /shell first: %+v", ops)
		}
	}
	var st jsonpatch.Doc
	for _, ops := range ok.got {
		if err := st.Apply(ops); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"shell":{"callId":"call_1","command":"make","elapsedMs":40,"exitCode":2,"lastLine":"last one","status":"exited","terminalRunId":"run-1"}}`
	if b, _ := st.MarshalJSON(); string(b) != want {
		t.Fatalf("state %s\nwant  %s", b, want)
	}

	refused := patches{refuse: 1}
	p = &progress{call: refused.call(), log: quiet, started: time.Now()}
	p.start("make", "run-2")
	p.tick("x")
	p.end(terminal.Result{}, "x", true)
	if len(refused.got) != 0 {
		t.Fatalf("patched after a refused start: %+v", refused.got)
	}
}
