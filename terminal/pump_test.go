package terminal

import (
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A character written in two parts, with a pause between them, is still sent whole:
// each part is read on its own (the next is written once the pump has sent what it
// could of the last), and the pump holds back the unfinished character.
func TestPumpHoldsAnUnfinishedCharacter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var got []string // only the pump's goroutine appends, before it signals
	emitted := make(chan struct{})
	sent := func() string { return strings.Join(got, "") }
	p := pump{src: r, emit: func(s string) {
		got = append(got, s)
		emitted <- struct{}{}
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.run()
	}()
	for _, step := range []struct{ part, sentSoFar string }{
		{"a\xe2\x82", "a"},
		{"\xac b \xf0\x9f", "a€ b "},
		{"\x98\x80", "a€ b 😀"},
	} {
		if _, err := w.WriteString(step.part); err != nil {
			t.Fatal(err)
		}
		select {
		case <-emitted:
		case <-time.After(waitLimit):
			t.Fatalf("the pump sent nothing of %q", step.part)
		}
		if sent() != step.sentSoFar {
			t.Fatalf("sent %q, want %q", sent(), step.sentSoFar)
		}
	}
	w.Close()
	<-done
	r.Close()
	for _, s := range got {
		if !utf8.ValidString(s) {
			t.Fatalf("sent %q, which splits a character (all: %q)", s, got)
		}
	}
	if all := sent(); all != "a€ b 😀" {
		t.Fatalf("got %q", all)
	}
}

// A steady stream is batched: far fewer events than writes, none over batchMax.
func TestPumpBatchesABusyStream(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	p := pump{src: r, emit: func(s string) { sizes = append(sizes, len(s)) }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.run()
	}()
	const writes = 2000
	line := strings.Repeat("x", 2047) + "\n" // bulk: reads of a KiB or more
	for range writes {
		if _, err := w.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	<-done
	r.Close()
	total := 0
	for _, n := range sizes {
		total += n
		if n > batchMax {
			t.Fatalf("an event of %d bytes", n)
		}
	}
	if total != writes*len(line) || len(sizes) >= writes/4 {
		t.Fatalf("%d bytes in %d events for %d writes", total, len(sizes), writes)
	}
}

// Small pieces (an echo) go out at once, even right after other output.
func TestPumpSendsSmallReadsAtOnce(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	p := pump{src: r, emit: func(s string) { got <- s }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.run()
	}()
	for _, key := range []string{"a", "b", "c"} {
		w.WriteString(key)
		select {
		case s := <-got:
			if s != key {
				t.Fatalf("got %q, want %q", s, key)
			}
		case <-time.After(time.Second):
			t.Fatalf("%q was held back", key)
		}
	}
	w.Close()
	<-done
	r.Close()
}
