package wire

import "testing"

func TestParseEventID(t *testing.T) {
	good := map[string]int64{"evt-0": 0, "evt-1": 1, "evt-123456789": 123456789}
	for s, want := range good {
		if n, err := ParseEventID(s); err != nil || n != want {
			t.Errorf("ParseEventID(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "evt-", "evt--1", "evt-01", "evt-1a", "42", "EVT-1", "evt-99999999999999999999"} {
		if _, err := ParseEventID(s); err == nil {
			t.Errorf("ParseEventID(%q) accepted", s)
		}
	}
}

func FuzzParseEventID(f *testing.F) {
	for _, s := range []string{"evt-1", "evt-", "evt-007", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseEventID(s)
		if err == nil && FormatEventID(n) != s {
			t.Fatalf("ParseEventID(%q) = %d, which formats as %q", s, n, FormatEventID(n))
		}
	})
}
