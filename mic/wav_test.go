package mic

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestWAVRoundTrip(t *testing.T) {
	pcm := tone(100*time.Millisecond, 0.5)
	got, f, err := DecodeWAV(EncodeWAV(pcm, Speech))
	if err != nil {
		t.Fatal(err)
	}
	if f != Speech || !slices.Equal(got, pcm) {
		t.Fatalf("got %v and %d samples, want %v and %d", f, len(got), Speech, len(pcm))
	}
}

// chunk is a RIFF chunk: id, size as declared, body.
func chunk(id string, size uint32, body []byte) []byte {
	b := append([]byte(id), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[4:], size)
	return append(b, body...)
}

func riff(chunks ...[]byte) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	for _, c := range chunks {
		b = append(b, c...)
	}
	return b
}

func fmtBody(tag, channels uint16, rate uint32, bits uint16) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint16(b[0:], tag)
	binary.LittleEndian.PutUint16(b[2:], channels)
	binary.LittleEndian.PutUint32(b[4:], rate)
	binary.LittleEndian.PutUint16(b[14:], bits)
	return b
}

func TestDecodeWAV(t *testing.T) {
	pcm := []byte{1, 0, 2, 0, 3, 0, 4, 0}
	stereo := fmtBody(1, 2, 44100, 16)
	extensible := append(fmtBody(0xFFFE, 1, 16000, 16), make([]byte, 24)...)
	binary.LittleEndian.PutUint16(extensible[16+8:], 1) // the subformat: PCM
	tests := []struct {
		name    string
		in      []byte
		want    []int16
		format  Format
		wantErr bool
	}{
		{"odd chunk skipped with its pad byte", riff(chunk("LIST", 3, []byte{9, 9, 9, 0}), chunk("fmt ", 16, stereo), chunk("data", 8, pcm)),
			[]int16{1, 2, 3, 4}, Format{44100, 2}, false},
		{"a stream's huge data size read to the end", riff(chunk("fmt ", 16, stereo), chunk("data", 0xFFFFFFFF, pcm)),
			[]int16{1, 2, 3, 4}, Format{44100, 2}, false},
		{"a half frame is dropped", riff(chunk("fmt ", 16, stereo), chunk("data", 6, pcm[:6])),
			[]int16{1, 2}, Format{44100, 2}, false},
		{"extensible PCM", riff(chunk("fmt ", 40, extensible), chunk("data", 4, pcm[:4])),
			[]int16{1, 2}, Format{16000, 1}, false},
		{"empty", nil, nil, Format{}, true},
		{"not RIFF", []byte("RIFX\x00\x00\x00\x00WAVE"), nil, Format{}, true},
		{"no data", riff(chunk("fmt ", 16, stereo)), nil, Format{}, true},
		{"data before fmt", riff(chunk("data", 8, pcm), chunk("fmt ", 16, stereo)), nil, Format{}, true},
		{"fmt cut short", riff(chunk("fmt ", 16, stereo[:10])), nil, Format{}, true},
		{"huge fmt size", riff(chunk("fmt ", 0xFFFFFFF0, stereo)), nil, Format{}, true},
		{"float samples", riff(chunk("fmt ", 16, fmtBody(3, 1, 16000, 32)), chunk("data", 8, pcm)), nil, Format{}, true},
		{"8-bit samples", riff(chunk("fmt ", 16, fmtBody(1, 1, 16000, 8)), chunk("data", 8, pcm)), nil, Format{}, true},
		{"no channels", riff(chunk("fmt ", 16, fmtBody(1, 0, 16000, 16)), chunk("data", 8, pcm)), nil, Format{}, true},
		{"absurd rate", riff(chunk("fmt ", 16, fmtBody(1, 1, 1<<31, 16)), chunk("data", 8, pcm)), nil, Format{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, f, err := DecodeWAV(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrNotWAV) {
					t.Fatalf("err = %v, want ErrNotWAV", err)
				}
				return
			}
			if err != nil || f != tt.format || !slices.Equal(got, tt.want) {
				t.Fatalf("got %v %v %v, want %v %v", got, f, err, tt.want, tt.format)
			}
		})
	}
}

func TestConvert(t *testing.T) {
	// One second of 48 kHz stereo (left a tone, right its opposite plus an offset)
	// becomes one second of 16 kHz mono holding the channels' mean.
	const n = 48000
	in := make([]int16, 2*n)
	for i := range n {
		in[2*i], in[2*i+1] = 1000, 3000
	}
	out := Convert(in, Format{48000, 2}, Speech)
	if len(out) != 16000 {
		t.Fatalf("len = %d, want 16000", len(out))
	}
	for i, s := range out {
		if s != 2000 {
			t.Fatalf("sample %d = %d, want 2000", i, s)
		}
	}
	if up := Convert([]int16{0, 100}, Format{8000, 1}, Format{16000, 2}); !slices.Equal(up, []int16{0, 0, 50, 50, 100, 100, 100, 100}) {
		t.Fatalf("8 kHz mono to 16 kHz stereo = %v", up)
	}
}

func FuzzDecodeWAV(f *testing.F) {
	f.Add(EncodeWAV(tone(10*time.Millisecond, 0.5), Speech))
	f.Add(EncodeWAV([]int16{1, 2, 3, 4}, Format{44100, 2}))
	f.Add(riff(chunk("LIST", 3, []byte{1, 2, 3, 0}), chunk("fmt ", 16, fmtBody(1, 1, 8000, 16)), chunk("data", 0xFFFFFFFF, []byte{1})))
	f.Add(riff(chunk("fmt ", 0xFFFFFFFF, nil)))
	f.Fuzz(func(t *testing.T, b []byte) {
		pcm, format, err := DecodeWAV(b)
		if err != nil {
			if pcm != nil {
				t.Fatal("samples with an error")
			}
			return
		}
		if format.Channels < 1 || format.Channels > maxChannels || format.Rate < minRate || format.Rate > maxRate {
			t.Fatalf("format %v accepted", format)
		}
		if len(pcm)*2 > len(b) || len(pcm)%format.Channels != 0 {
			t.Fatalf("%d samples from %d bytes, %d channels", len(pcm), len(b), format.Channels)
		}
		// What decodes encodes back to the same samples.
		again, f2, err := DecodeWAV(EncodeWAV(pcm, format))
		if err != nil || f2 != format || !slices.Equal(again, pcm) {
			t.Fatalf("round trip: %v %v", f2, err)
		}
	})
}
