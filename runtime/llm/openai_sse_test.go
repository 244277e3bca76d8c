package llm

import (
	"errors"
	"strings"
	"testing"
)

// TestSSEReader reads events as the SDK's decoder did: data lines joined, each
// ending in "\n"; comments, names and ids skipped; an unterminated event dropped.
func TestSSEReader(t *testing.T) {
	in := ": keep-alive\n\n" +
		"event: message\nid: 1\ndata: {\"a\":\ndata:1}\n\n" +
		"\n\n" +
		"data:[DONE]\r\n\r\n" +
		"data: lost"
	r := newSSEReader(strings.NewReader(in))
	var got []string
	for {
		data, ok := r.next()
		if !ok {
			break
		}
		got = append(got, string(data))
	}
	want := []string{"{\"a\":\n1}\n", "[DONE]\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") || r.err() != nil {
		t.Errorf("events = %q (err %v), want %q", got, r.err(), want)
	}
}

// TestDecodeOpenAIChunk checks that a reused chunk keeps nothing of the one before,
// that a field of an unexpected type is skipped, and that an error event is seen.
func TestDecodeOpenAIChunk(t *testing.T) {
	var c openAIChunk
	steps := []struct {
		data, content, reasoning string
		usage, isError           bool
	}{
		{data: `{"choices":[{"index":0,"delta":{"content":"A","reasoning_content":"r"}}]}`, content: "A", reasoning: "r"},
		{data: `{"choices":[{"index":0,"delta":{}}],"usage":{"prompt_tokens":1}}`, usage: true},
		{data: `{"choices":[{"index":0,"delta":{"content":5,"reasoning":{"x":1}}}]}`},
		{data: `{"choices":[{"index":0,"delta":{"content":"B","reasoning":"s"}}],"usage":null}`, content: "B", reasoning: "s"},
		{data: `{"error":null}`, isError: true},
	}
	for i, s := range steps {
		if err := decodeOpenAIChunk([]byte(s.data), &c); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		content, reasoning := "", ""
		if len(c.Choices) > 0 {
			content, reasoning = c.Choices[0].Delta.Content, c.Choices[0].reasoning()
		}
		if content != s.content || reasoning != s.reasoning || (c.Usage != nil) != s.usage || (c.Error != nil) != s.isError {
			t.Errorf("step %d: content %q reasoning %q usage %v error %s", i, content, reasoning, c.Usage != nil, c.Error)
		}
	}
	if err := decodeOpenAIChunk([]byte(`{"choices":[`), &c); err == nil {
		t.Error("malformed JSON decoded without an error")
	}
}

// FuzzSSEReader checks that no input makes the reader fail or return data that
// does not end its lines with "\n".
func FuzzSSEReader(f *testing.F) {
	f.Add("data: {}\n\n")
	f.Add(": c\nevent: e\ndata: a\ndata: b\n\ndata")
	f.Fuzz(func(t *testing.T, in string) {
		r := newSSEReader(strings.NewReader(in))
		for {
			data, ok := r.next()
			if !ok {
				break
			}
			if len(data) == 0 || data[len(data)-1] != '\n' {
				t.Fatalf("event data %q", data)
			}
		}
	})
}

// endlessData is a hostile model server's stream: data lines that never end their event.
type endlessData struct{ line []byte }

func (e endlessData) Read(p []byte) (int, error) {
	n := 0
	for n+len(e.line) <= len(p) {
		n += copy(p[n:], e.line)
	}
	return n, nil
}

// TestSSEReaderBoundsAnEvent: an event that never ends stops the stream at the bound
// with a clear error, instead of growing until Wisp runs out of memory.
func TestSSEReaderBoundsAnEvent(t *testing.T) {
	r := newSSEReader(endlessData{line: []byte("data: " + strings.Repeat("x", 1000) + "\n")})
	if data, ok := r.next(); ok {
		t.Fatalf("an endless event gave %d bytes", len(data))
	}
	if !errors.Is(r.err(), errSSEEventTooLong) {
		t.Fatalf("err = %v, want %v", r.err(), errSSEEventTooLong)
	}
	if cap(r.data) > 2*maxSSEEvent {
		t.Fatalf("the reader held %d bytes", cap(r.data))
	}
}
