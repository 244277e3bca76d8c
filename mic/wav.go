package mic

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Format is the shape of 16-bit PCM: samples per second and interleaved channels.
type Format struct{ Rate, Channels int }

// Speech is what capture delivers and the speech-to-text server receives:
// 16 kHz mono, 16-bit little-endian.
var Speech = Format{Rate: speechRate, Channels: 1}

// speechRate is Speech's rate, as a constant.
const speechRate = 16000

// Bounds of the WAV files DecodeWAV accepts.
const (
	minRate     = 1000
	maxRate     = 384000
	maxChannels = 8
)

// WAV's format tags: plain PCM, and the extensible header whose subformat says PCM.
const (
	wavPCM        = 1
	wavExtensible = 0xFFFE
)

// EncodeWAV writes interleaved 16-bit samples as a WAV file (RIFF, PCM).
func EncodeWAV(pcm []int16, f Format) []byte {
	data := len(pcm) * 2
	b := make([]byte, 44+data)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+data))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], wavPCM)
	binary.LittleEndian.PutUint16(b[22:], uint16(f.Channels))
	binary.LittleEndian.PutUint32(b[24:], uint32(f.Rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(f.Rate*f.Channels*2))
	binary.LittleEndian.PutUint16(b[32:], uint16(f.Channels*2))
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(data))
	for i, s := range pcm {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(s))
	}
	return b
}

// ErrNotWAV is returned by DecodeWAV for what is not a 16-bit PCM WAV file.
var ErrNotWAV = errors.New("not a 16-bit PCM WAV file")

// DecodeWAV reads a 16-bit PCM WAV file: its interleaved samples and format. Chunks
// it does not know are skipped (odd sizes padded, as RIFF says); a data chunk that
// declares more than the file holds (a stream's 0xFFFFFFFF) is read to the end.
func DecodeWAV(b []byte) ([]int16, Format, error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, Format{}, fmt.Errorf("%w: no RIFF/WAVE header", ErrNotWAV)
	}
	var f Format
	haveFmt := false
	rest := b[12:]
	for len(rest) >= 8 {
		id, size := string(rest[0:4]), uint64(binary.LittleEndian.Uint32(rest[4:8]))
		body := rest[8:]
		if size > uint64(len(body)) {
			if id != "data" {
				return nil, Format{}, fmt.Errorf("%w: the %q chunk is cut short", ErrNotWAV, id)
			}
			size = uint64(len(body))
		}
		switch id {
		case "fmt ":
			var err error
			if f, err = parseFmt(body[:size]); err != nil {
				return nil, Format{}, err
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, Format{}, fmt.Errorf("%w: data before the fmt chunk", ErrNotWAV)
			}
			return samples(body[:size], f.Channels), f, nil
		}
		skip := size + size&1 // chunks are padded to an even size
		if skip >= uint64(len(body)) {
			break
		}
		rest = body[skip:]
	}
	return nil, Format{}, fmt.Errorf("%w: no data chunk", ErrNotWAV)
}

// parseFmt reads a fmt chunk: PCM (or extensible PCM), 16 bits, a sane rate and
// channel count.
func parseFmt(c []byte) (Format, error) {
	if len(c) < 16 {
		return Format{}, fmt.Errorf("%w: the fmt chunk is too short", ErrNotWAV)
	}
	tag := binary.LittleEndian.Uint16(c[0:2])
	if tag == wavExtensible && len(c) >= 26 {
		tag = binary.LittleEndian.Uint16(c[24:26]) // the subformat GUID's first two bytes
	}
	f := Format{Channels: int(binary.LittleEndian.Uint16(c[2:4])), Rate: int(binary.LittleEndian.Uint32(c[4:8]))}
	bits := binary.LittleEndian.Uint16(c[14:16])
	switch {
	case tag != wavPCM:
		return Format{}, fmt.Errorf("%w: format tag %#x", ErrNotWAV, tag)
	case bits != 16:
		return Format{}, fmt.Errorf("%w: %d bits per sample", ErrNotWAV, bits)
	case f.Channels < 1 || f.Channels > maxChannels:
		return Format{}, fmt.Errorf("%w: %d channels", ErrNotWAV, f.Channels)
	case f.Rate < minRate || f.Rate > maxRate:
		return Format{}, fmt.Errorf("%w: %d samples per second", ErrNotWAV, f.Rate)
	}
	return f, nil
}

// samples reads little-endian 16-bit samples, whole frames only.
func samples(b []byte, channels int) []int16 {
	n := len(b) / 2
	n -= n % channels
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return out
}

// Convert turns interleaved samples of one format into another: channels are
// averaged to mono (or mono copied to every channel), and the rate is changed by
// linear interpolation, which is enough for speech.
func Convert(pcm []int16, from, to Format) []int16 {
	mono := toMono(pcm, from.Channels)
	if from.Rate != to.Rate {
		mono = resample(mono, from.Rate, to.Rate)
	}
	if to.Channels <= 1 {
		return mono
	}
	out := make([]int16, len(mono)*to.Channels)
	for i, s := range mono {
		for c := range to.Channels {
			out[i*to.Channels+c] = s
		}
	}
	return out
}

func toMono(pcm []int16, channels int) []int16 {
	if channels <= 1 {
		return pcm
	}
	out := make([]int16, len(pcm)/channels)
	for i := range out {
		sum := 0
		for c := range channels {
			sum += int(pcm[i*channels+c])
		}
		out[i] = int16(sum / channels)
	}
	return out
}

func resample(pcm []int16, from, to int) []int16 {
	if len(pcm) == 0 {
		return nil
	}
	n := int(int64(len(pcm)) * int64(to) / int64(from))
	out := make([]int16, n)
	for i := range out {
		pos := float64(i) * float64(from) / float64(to)
		j := int(pos)
		if j >= len(pcm)-1 {
			out[i] = pcm[len(pcm)-1]
			continue
		}
		frac := pos - float64(j)
		out[i] = int16(float64(pcm[j])*(1-frac) + float64(pcm[j+1])*frac)
	}
	return out
}
