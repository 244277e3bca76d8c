package jsonlist

import (
	"encoding/json"
	"testing"
)

func TestNonNilEncodesAnEmptyList(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, "[]"},
		{[]string{}, "[]"},
		{[]string{"a"}, `["a"]`},
	} {
		got, err := json.Marshal(NonNil(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("NonNil(%#v) encodes as %s (%v), want %s", tt.in, got, err, tt.want)
		}
	}
	items := []int{1, 2}
	if out := NonNil(items); &out[0] != &items[0] {
		t.Error("a non-nil list was copied")
	}
}
