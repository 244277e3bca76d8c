package terminal

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// A character written in two parts, with a pause between them, is still sent whole.
func TestPumpHoldsAnUnfinishedCharacter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	p := pump{src: r, emit: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, s)
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.run()
	}()
	parts := []string{"a\xe2\x82", "\xac b \xf0\x9f", "\x98\x80"}
	for _, part := range parts {
		if _, err := w.WriteString(part); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * batchWindow) // each part is read and flushed on its own
	}
	w.Close()
	<-done
	r.Close()
	for _, s := range got {
		if !utf8.ValidString(s) {
			t.Fatalf("sent %q, which splits a character (all: %q)", s, got)
		}
	}
	if all := strings.Join(got, ""); all != "a€ b 😀" {
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
