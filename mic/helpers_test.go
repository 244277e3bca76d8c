package mic

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv("MIC_TEST_RECORDER"); mode != "" {
		os.Exit(fakeRecorder(mode))
	}
	goleak.VerifyTestMain(m)
}

// waitLimit bounds every wait of a test for something that must happen.
const waitLimit = 30 * time.Second

// silence is d of digital silence in the Speech format.
func silence(d time.Duration) []int16 { return make([]int16, samplesOf(d)) }

// tone is d of a 440 Hz sine of peak amplitude amp (0–1).
func tone(d time.Duration, amp float64) []int16 {
	out := make([]int16, samplesOf(d))
	for i := range out {
		out[i] = int16(amp * 32767 * math.Sin(2*math.Pi*440*float64(i)/speechRate))
	}
	return out
}

// noise is d of white noise of RMS about amp, deterministic.
func noise(d time.Duration, amp float64, seed uint64) []int16 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]int16, samplesOf(d))
	for i := range out {
		out[i] = int16(r.NormFloat64() * amp * 32767)
	}
	return out
}

// mix adds b onto a (same length or shorter), clipping.
func mix(a, b []int16) []int16 {
	out := append([]int16(nil), a...)
	for i := range min(len(a), len(b)) {
		out[i] = int16(max(-32768, min(32767, int(a[i])+int(b[i]))))
	}
	return out
}

func samplesOf(d time.Duration) int { return int(d * speechRate / time.Second) }

func concat(parts ...[]int16) []int16 {
	var out []int16
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// writeWAV writes pcm as a WAV file in the test's folder.
func writeWAV(t *testing.T, name string, pcm []int16, f Format) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, EncodeWAV(pcm, f), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// near reports whether got is within tol of want.
func near(got, want, tol time.Duration) bool { return got >= want-tol && got <= want+tol }

// fakeRecorder is the test binary run as a recorder program (MIC_TEST_RECORDER=mode):
//   - tone: starts a child of its own (mode sleep, its pid written to MIC_TEST_PIDFILE)
//     in its group, writes its arguments to MIC_TEST_ARGSFILE, then a tone forever;
//   - au: like tone without the child, as a big-endian AU stream (pw-record's stdout);
//   - fail: a line on stderr and exit 1 at once;
//   - silent: nothing, for an hour;
//   - die: a little audio, then a line on stderr and exit 2;
//   - sleep: sleeps an hour.
func fakeRecorder(mode string) int {
	block := make([]byte, 640)
	for i := range 320 {
		s := int16(0.3 * 32767 * math.Sin(2*math.Pi*440*float64(i)/speechRate))
		binary.LittleEndian.PutUint16(block[2*i:], uint16(s))
	}
	switch mode {
	case "sleep", "silent":
		time.Sleep(time.Hour)
		return 0
	case "fail":
		os.Stderr.WriteString("ALSA lib pcm.c:2666: Unknown PCM default\nrecorder: cannot open audio device default\n")
		return 1
	case "die":
		os.Stdout.Write(block)
		os.Stderr.WriteString("recorder: the device was disconnected\n")
		return 2
	case "au":
		var h [24]byte
		copy(h[:], ".snd")
		binary.BigEndian.PutUint32(h[4:], 32)
		binary.BigEndian.PutUint32(h[8:], 0xFFFFFFFF)
		binary.BigEndian.PutUint32(h[12:], 3)
		binary.BigEndian.PutUint32(h[16:], speechRate)
		binary.BigEndian.PutUint32(h[20:], 1)
		os.Stdout.Write(append(h[:], make([]byte, 8)...))
		swapped := append([]byte(nil), block...)
		for i := 0; i < len(swapped); i += 2 {
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
		}
		block = swapped
	case "tone":
		if path := os.Getenv("MIC_TEST_ARGSFILE"); path != "" {
			os.WriteFile(path, []byte(strings.Join(os.Args[1:], " ")), 0o600)
		}
		child, err := os.StartProcess(os.Args[0], []string{os.Args[0]}, &os.ProcAttr{
			Env: append(os.Environ(), "MIC_TEST_RECORDER=sleep"), Files: []*os.File{nil, nil, os.Stderr},
		})
		if err != nil {
			return 3
		}
		os.WriteFile(os.Getenv("MIC_TEST_PIDFILE"), []byte(strconv.Itoa(child.Pid)), 0o600)
	}
	for {
		if _, err := os.Stdout.Write(block); err != nil {
			return 0
		}
	}
}

// gone reports whether process pid has ended (no longer there, or a zombie whose
// parent has not reaped it yet: in a container nobody may).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// waitGone waits until process pid has ended.
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
