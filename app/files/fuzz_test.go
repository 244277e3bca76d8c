package files

import (
	"strings"
	"testing"

	"fmt"
	"strconv"
)

// Whatever path the model sends, locate answers a place inside a root with no ".."
// and no empty component, or refuses it.
func FuzzLocate(f *testing.F) {
	for _, s := range []string{"", ".", "a/b", "../x", "/root/a/../../etc", "~/x", "/root", "/rootx", "a//b/./c", "/root/\x00"} {
		f.Add(s)
	}
	s := New(Options{Roots: func() []string { return []string{"/root", "/root/deep/er"} }, Home: "/root"})
	f.Fuzz(func(t *testing.T, p string) {
		at, err := s.locate(p)
		if err != nil {
			return
		}
		if at.root != "/root" && at.root != "/root/deep/er" {
			t.Fatalf("%q: root %q", p, at.root)
		}
		if at.rel != "." {
			for _, c := range strings.Split(at.rel, "/") {
				if c == "" || c == "." || c == ".." {
					t.Fatalf("%q: rel %q", p, at.rel)
				}
			}
		}
		if abs := at.abs(); abs != at.root && !strings.HasPrefix(abs, at.root+"/") {
			t.Fatalf("%q: %q is outside %q", p, abs, at.root)
		}
	})
}

// The diff a card shows turns the file before into the file after exactly.
func FuzzUnified(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", true)
	f.Add("", "new\n", false)
	f.Add("no newline", "no newline at all", true)
	f.Add("x\n\n\ny", "\n", true)
	f.Fuzz(func(t *testing.T, before, after string, existed bool) {
		if len(before) > 4096 || len(after) > 4096 {
			return
		}
		if !existed {
			before = ""
		}
		d, err := unified("f.txt", existed, before, after)
		if err != nil {
			t.Fatal(err)
		}
		if before == after {
			return
		}
		got, err := applyUnified(d, before)
		if err != nil {
			t.Fatalf("apply %q to %q: %v", d, before, err)
		}
		if got != after {
			t.Fatalf("diff %q turns %q into %q, not %q", d, before, got, after)
		}
	})
}

// applyUnified applies a unified diff with context, checking every context and
// removed line against before.
func applyUnified(diff, before string) (string, error) {
	old := strings.SplitAfter(before, "\n")
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	left := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			continue
		}
		content := l[1:]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\") {
			content = strings.TrimSuffix(content, "\n")
			i++
		}
		switch l[0] {
		case '@':
			var from, n int
			head := strings.Fields(l)[1][1:]
			a, b, ok := strings.Cut(head, ",")
			from, _ = strconv.Atoi(a)
			n = 1
			if ok {
				n, _ = strconv.Atoi(b)
			}
			start := from - 1
			if n == 0 {
				start = from
			}
			for ; left < start; left++ {
				out = append(out, old[left])
			}
		case ' ', '-':
			if left >= len(old) || old[left] != content {
				return "", fmt.Errorf("line %d is %q, the diff says %q", left+1, old[min(left, len(old)-1)], content)
			}
			if l[0] == ' ' {
				out = append(out, content)
			}
			left++
		case '+':
			out = append(out, content)
		default:
			return "", fmt.Errorf("unexpected line %q", l)
		}
	}
	out = append(out, old[left:]...)
	return strings.Join(out, ""), nil
}
