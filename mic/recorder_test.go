package mic

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRecorderNullSource(t *testing.T) {
	var zero Recorder
	if _, err := zero.Stop(); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("Stop before Start: %v, want ErrNotStarted", err)
	}
	if err := zero.Start(context.Background(), NullSource()); err != nil {
		t.Fatal(err)
	}
	if _, err := zero.Stop(); err != nil {
		t.Fatalf("the zero Recorder: %v", err)
	}
	blocks := make(chan int, 100)
	rec := NewRecorder(RecorderOptions{OnAudio: func(pcm []int16) {
		select {
		case blocks <- len(pcm):
		default:
		}
	}})
	if err := rec.Start(context.Background(), NullSource()); err != nil {
		t.Fatal(err)
	}
	if err := rec.Start(context.Background(), NullSource()); !errors.Is(err, ErrRecording) {
		t.Fatalf("second Start: %v, want ErrRecording", err)
	}
	select {
	case <-blocks:
	case <-time.After(waitLimit):
		t.Fatal("no audio from the null source")
	}
	wav, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	pcm, f, err := DecodeWAV(wav)
	if err != nil || f != Speech || len(pcm) == 0 || rms(pcm) != 0 {
		t.Fatalf("recorded %d samples as %v (%v), rms %.3f: want silence", len(pcm), f, err, rms(pcm))
	}
	if rec.Level() != 0 {
		t.Fatal("a level after Stop")
	}
	// Started again, it records anew.
	if err := rec.Start(context.Background(), NullSource()); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
}

func TestRecorderLevel(t *testing.T) {
	path := writeWAV(t, "loud.wav", tone(10*time.Second, 0.5), Speech)
	rec := NewRecorder(RecorderOptions{Discard: true})
	if err := rec.Start(context.Background(), FileSource(path)); err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	deadline := time.Now().Add(waitLimit)
	for rec.Level() < 0.3 { // a sine of peak 0.5 has an RMS of 0.354
		if time.Now().After(deadline) {
			t.Fatalf("level %.3f, want ≈ 0.354", rec.Level())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if l := rec.Level(); l > 0.4 {
		t.Fatalf("level %.3f, want ≈ 0.354", l)
	}
	wav, _ := rec.Stop()
	if pcm, _, _ := DecodeWAV(wav); len(pcm) != 0 {
		t.Fatal("a discarding recorder kept audio")
	}
}

func TestRecorderStopsItselfAtMax(t *testing.T) {
	rec := NewRecorder(RecorderOptions{Max: 100 * time.Millisecond})
	if err := rec.Start(context.Background(), NullSource()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rec.Done():
	case <-time.After(waitLimit):
		t.Fatal("the recorder did not stop itself")
	}
	if !errors.Is(rec.Err(), ErrMaxDuration) {
		t.Fatalf("Err = %v, want ErrMaxDuration", rec.Err())
	}
	wav, err := rec.Stop()
	if !errors.Is(err, ErrMaxDuration) {
		t.Fatalf("Stop: %v, want ErrMaxDuration", err)
	}
	if pcm, _, _ := DecodeWAV(wav); len(pcm) == 0 || len(pcm) > samplesOf(time.Second) {
		t.Fatalf("%d samples kept past the limit", len(pcm))
	}
}

func TestRecorderWithARecorderProcess(t *testing.T) {
	src, pidFile := fakeSource(t, "tone")
	rec := NewRecorder(RecorderOptions{})
	if err := rec.Start(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	child := childPid(t, pidFile)
	deadline := time.Now().Add(waitLimit)
	for rec.Level() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no level from the recorder process")
		}
		time.Sleep(5 * time.Millisecond)
	}
	wav, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if pcm, _, err := DecodeWAV(wav); err != nil || rms(pcm) < 0.1 {
		t.Fatalf("recorded %d samples (%v), want the tone", len(pcm), err)
	}
	waitGone(t, "the recorder's child", child)

	failing, _ := fakeSource(t, "fail")
	if err := rec.Start(context.Background(), failing); err == nil || !strings.Contains(err.Error(), "cannot open audio device") {
		t.Fatalf("Start with a failing recorder: %v", err)
	}
	dying, _ := fakeSource(t, "die")
	if err := rec.Start(context.Background(), dying); err != nil {
		t.Fatal(err)
	}
	<-rec.Done()
	if _, err := rec.Stop(); err == nil || !strings.Contains(err.Error(), "disconnected") {
		t.Fatalf("Stop after the recorder died: %v, want its error", err)
	}
}

// A source faster than real time is bounded by Max of audio, not only of time.
func TestRecorderBoundsAFastSource(t *testing.T) {
	path := writeWAV(t, "long.wav", silence(3*time.Second), Speech)
	rec := NewRecorder(RecorderOptions{Max: time.Second})
	if err := rec.Start(context.Background(), FileSource(path, Unpaced())); err != nil {
		t.Fatal(err)
	}
	<-rec.Done()
	wav, err := rec.Stop()
	if !errors.Is(err, ErrMaxDuration) {
		t.Fatalf("Stop: %v, want ErrMaxDuration", err)
	}
	if pcm, _, _ := DecodeWAV(wav); len(pcm) < samplesOf(time.Second) || len(pcm) > samplesOf(time.Second)+readBlock {
		t.Fatalf("%d samples kept, want 1 s", len(pcm))
	}
}
