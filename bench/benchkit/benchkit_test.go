package benchkit

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// same reports whether got equals want, counting NaN as equal to NaN.
func same(got, want float64) bool {
	return got == want || math.IsNaN(got) && math.IsNaN(want)
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{nil, math.NaN()},
		{[]float64{}, math.NaN()},
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7, 7, 1, 100, 7}, 7},
	} {
		in := slices.Clone(tc.in)
		if got := Median(in); !same(got, tc.want) {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("Median(%v) reordered its input to %v", tc.in, in)
		}
	}
}

func TestPercentile(t *testing.T) {
	var hundred []float64
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, float64(i))
	}
	fifteen := []float64{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	for _, tc := range []struct {
		name string
		in   []float64
		p    float64
		want float64
	}{
		{"empty", nil, 90, math.NaN()},
		{"one sample", []float64{42}, 90, 42},
		{"one sample p50", []float64{42}, 50, 42},
		{"rank rounds up", fifteen, 90, 14}, // ceil(0.9*15) = 14th smallest
		{"exact rank", ten, 90, 9},          // ceil(0.9*10) = 9th smallest
		{"p100 is the maximum", ten, 100, 10},
		{"p50 of ten", ten, 50, 5},
		{"small p is the minimum", []float64{1, 2}, 1, 1},
		{"p50 of hundred", hundred, 50, 50},
		{"p95 of hundred", hundred, 95, 95},
		{"p95 of three", []float64{3, 1, 2}, 95, 3},
	} {
		in := slices.Clone(tc.in)
		if got := Percentile(in, tc.p); !same(got, tc.want) {
			t.Errorf("%s: Percentile(%v, %v) = %v, want %v", tc.name, tc.in, tc.p, got, tc.want)
		}
		if !slices.Equal(in, tc.in) {
			t.Errorf("%s: Percentile reordered its input", tc.name)
		}
	}
}

func TestReplaceSection(t *testing.T) {
	const (
		begin = "<!-- bench:demo:begin -->"
		end   = "<!-- bench:demo:end -->"
		intro = "## Demo\n\n"
		other = "<!-- bench:other:begin -->\nkeep\n<!-- bench:other:end -->\n"
	)
	for _, tc := range []struct {
		name    string
		old     *string // nil: no file
		intro   string
		want    string // the file afterwards; the old contents when wantErr
		wantErr bool
	}{
		{
			name:  "new file",
			intro: intro,
			want:  "# Benchmarks\n\n## Demo\n\n" + begin + "\nNEW\n" + end + "\n",
		},
		{
			name: "new file, no intro",
			want: "# Benchmarks\n\n" + begin + "\nNEW\n" + end + "\n",
		},
		{
			name:  "markers missing: appended after one blank line",
			old:   ptr("# Benchmarks\n\n" + other + "\n\n"),
			intro: intro,
			want:  "# Benchmarks\n\n" + other + "\n## Demo\n\n" + begin + "\nNEW\n" + end + "\n",
		},
		{
			name:  "markers present: only the section changes",
			old:   ptr("# B\n\n## Demo\n\n" + begin + "\nold\nlines\n" + end + "\n\n" + other),
			intro: intro,
			want:  "# B\n\n## Demo\n\n" + begin + "\nNEW\n" + end + "\n\n" + other,
		},
		{
			name: "empty section",
			old:  ptr(begin + end + "tail"),
			want: begin + "\nNEW\n" + end + "tail",
		},
		{
			name:    "only the begin marker",
			old:     ptr("x\n" + begin + "\nold\n"),
			wantErr: true,
		},
		{
			name:    "only the end marker",
			old:     ptr("x\nold\n" + end + "\n"),
			wantErr: true,
		},
		{
			name:    "end before begin",
			old:     ptr(end + "\n" + begin + "\n"),
			wantErr: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
			if tc.old != nil {
				if err := os.WriteFile(path, []byte(*tc.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := ReplaceSection(path, "demo", tc.intro, "NEW")
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "demo markers are unbalanced") {
					t.Fatalf("err = %v, want unbalanced markers", err)
				}
				if got := readFile(t, path); got != *tc.old {
					t.Errorf("file changed on error:\n%q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path); got != tc.want {
				t.Errorf("file =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		name string
		data string
	}{
		{"create", "first\n"},
		{"overwrite with shorter", "2\n"},
		{"empty", ""},
	} {
		if err := WriteAtomic(path, []byte(tc.data)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := readFile(t, path); got != tc.data {
			t.Errorf("%s: file = %q, want %q", tc.name, got, tc.data)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode = %v, want 0644", tc.name, fi.Mode().Perm())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: %d entries in the directory, want only the file", tc.name, len(entries))
		}
	}
	if err := WriteAtomic(filepath.Join(dir, "missing", "out"), nil); err == nil {
		t.Error("WriteAtomic into a missing directory succeeded")
	}
}

func ptr(s string) *string { return &s }

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReportFormats(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 1234567.4: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(v); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", v, got, want)
		}
	}
	if Msec(0.123) != "0.12 ms" || Msec(12.34) != "12.3 ms" || Verdict(true) != "pass" || Verdict(false) != "**MISSED**" {
		t.Fatal("Msec or Verdict")
	}
}

func TestTailBufferKeepsTheLastBytes(t *testing.T) {
	b := &TailBuffer{Max: 8}
	for _, s := range []string{"abc", "defgh", "ijk"} {
		if n, err := b.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got := b.String(); got != "defghijk" {
		t.Fatalf("kept %q", got)
	}
}
