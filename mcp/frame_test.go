package mcp

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineCap(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		over bool
	}{
		{"lines at the cap", "12345678\n12345678\n", false},
		{"last line at the cap, no newline", "1\n12345678", false},
		{"a line over the cap", "1\n123456789\n1\n", true},
		{"the last line over the cap", "1\n123456789", true},
		{"empty lines", "\n\n\n", false},
		{"windows ends count as bytes", "1234567\r\n", false},
	} {
		for _, one := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if one {
				r = iotest.OneByteReader(r) // a line across many reads
			}
			c := &lineCap{r: io.NopCloser(r), max: 8}
			got, err := io.ReadAll(c)
			if tc.over {
				if !errors.Is(err, errMessageTooBig) || !c.tooBig() {
					t.Errorf("%s (one byte: %v): err = %v, tooBig = %v", tc.name, one, err, c.tooBig())
				}
				if _, err := c.Read(make([]byte, 4)); !errors.Is(err, errMessageTooBig) {
					t.Errorf("%s: a read after the cut = %v", tc.name, err)
				}
				continue
			}
			if err != nil || string(got) != tc.in || c.tooBig() {
				t.Errorf("%s (one byte: %v): %q, %v", tc.name, one, got, err)
			}
		}
	}
}

// A server whose message is over the cap is told so, not "the server exited".
func TestMessageOverTheCap(t *testing.T) {
	spec := selfServer(t, map[string]string{"WISP_MCP_TEST_SERVER": "huge"})
	w := newWatched(t, Options{})
	w.Apply(map[string]Spec{"huge": spec})
	st := w.until(t, "huge", func(st Status) bool { return st.State == Failed })
	if !strings.Contains(st.LastError, "over 16 MiB") {
		t.Errorf("last error = %q, want it to say the message was over 16 MiB", st.LastError)
	}
}
