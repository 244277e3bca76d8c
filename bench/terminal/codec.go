package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wispapp/wisp/app/wire"
)

// codecCost is the CPU cost of the JSON wrapping of one kind of output, alone:
// Wisp's encoder (wire.TerminalOutput.AppendJSON, as the hub calls it for
// app.sendTerminalEvent's frames) and this client's decoders (encoding/json into frame, and the counting
// one of --client=count), each in a tight
// loop on one goroutine over full 32 KiB output events. Rates are MB/s of
// terminal output (1 MB = 10^6 bytes).
type codecCost struct {
	name        string
	wirePerByte float64 // frame bytes per output byte
	encode      float64 // MB/s
	decode      float64 // MB/s, encoding/json (--client=json)
	count       float64 // MB/s, the counting decoder (--client=count)
}

// codecKinds are 32 KiB events as the pump hands them over, for each case.
func codecKinds() []struct {
	name string
	data []byte
} {
	const n = 32 << 10
	return []struct {
		name string
		data []byte
	}{
		{"zeros (NUL → `\\u0000`, 6 bytes each)", make([]byte, n)},
		{"newline-dense, interactive (`y\\r\\n`)", bytes.Repeat([]byte("y\r\n"), n/3+1)[:n]},
		{"newline-dense, captured (`y\\n`)", bytes.Repeat([]byte("y\n"), n/2)},
	}
}

// measureCodec encodes and decodes each kind of event for about budget each.
func measureCodec(budget time.Duration) ([]codecCost, error) {
	var out []codecCost
	for _, k := range codecKinds() {
		ev := wire.NewTerminalOutput("run-1700000000000-abcdef", "", 12345, wire.TerminalStdout)
		ev.Data = string(k.data)
		c := codecCost{name: k.name}
		var enc []byte
		iters, start := 0, time.Now()
		for time.Since(start) < budget {
			enc = ev.AppendJSON(make([]byte, 0, len(ev.Data)+128))
			iters++
		}
		c.encode = float64(iters*len(k.data)) / 1e6 / time.Since(start).Seconds()
		c.wirePerByte = float64(len(enc)) / float64(len(k.data))

		var f frame
		iters, start = 0, time.Now()
		for time.Since(start) < budget {
			f = frame{}
			if err := json.Unmarshal(enc, &f); err != nil {
				return nil, fmt.Errorf("codec: %w", err)
			}
			iters++
		}
		c.decode = float64(iters*len(k.data)) / 1e6 / time.Since(start).Seconds()
		if f.Data != ev.Data || f.Seq != ev.Seq || f.Event != "stdout" {
			return nil, fmt.Errorf("codec: %s: the decoded event differs from the encoded one", k.name)
		}

		iters, start = 0, time.Now()
		for time.Since(start) < budget {
			f = frame{}
			n, err := decodeCounting(enc, &f)
			if err != nil || n != len(ev.Data) {
				return nil, fmt.Errorf("codec: %s: counted %d bytes (%v), want %d", k.name, n, err, len(ev.Data))
			}
			iters++
		}
		c.count = float64(iters*len(k.data)) / 1e6 / time.Since(start).Seconds()
		out = append(out, c)
	}
	return out, nil
}
