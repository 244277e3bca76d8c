package speech

import (
	"strings"
	"testing"
)

func TestTone(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" when no tone
	}{
		{"Congratulations! That is wonderful news 🎉", Happy},
		{"I'm so sorry to hear about your loss.", Sad},
		{"Wow, that is incredible!", Surprised},
		{"That is outrageous and unacceptable.", Angry},
		{"No worries, take your time and relax.", Relaxed},
		{"The file has 3 lines.", ""},
		{"Great.", ""},                              // one word is not enough
		{"Sorry, but great, glad it works.", Happy}, // happy 2 against sad 1
		{"", ""},
		{"\xff\xfe" + strings.Repeat("😢", 3), Sad},
	}
	for _, c := range cases {
		name, in, ok := Tone(c.in)
		if (c.want != "") != ok || name != c.want {
			t.Errorf("Tone(%q) = %q %.2f %v, want %q", c.in, name, in, ok, c.want)
		}
		if ok && (in <= 0 || in > MaxToneIntensity) {
			t.Errorf("Tone(%q) intensity %.2f", c.in, in)
		}
	}
}

func TestToneBounded(t *testing.T) {
	long := strings.Repeat("sorry ", 1<<20) + strings.Repeat("x", 1<<20)
	if _, _, ok := Tone(long); !ok {
		// the start is read: sad
		t.Error("the start of a long reply was not read")
	}
}

func FuzzTone(f *testing.F) {
	f.Add("Wow! 😀 great")
	f.Fuzz(func(t *testing.T, s string) {
		_, in, ok := Tone(s)
		if ok && (in <= 0 || in > MaxToneIntensity) {
			t.Fatalf("intensity %v", in)
		}
	})
}
