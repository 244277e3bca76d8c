package ids

import (
	"regexp"
	"testing"
)

func TestFromNameIsStableAndDistinct(t *testing.T) {
	pattern := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	names := []string{"", "chatgpt/conversation/a", "chatgpt/conversation/b", "chatgpt/message/a/1"}
	seen := map[string]string{}
	for _, name := range names {
		id := FromName(name)
		if !pattern.MatchString(id) {
			t.Fatalf("FromName(%q) = %q, not a version 8 UUID", name, id)
		}
		if FromName(name) != id {
			t.Fatalf("FromName(%q) changed between calls", name)
		}
		if other, ok := seen[id]; ok {
			t.Fatalf("%q and %q give the same id %s", name, other, id)
		}
		seen[id] = name
	}
	// A known value: the derivation must never change, or imports would duplicate.
	if got := FromName("chatgpt/conversation/a"); got != "cedec4a6-67f3-8185-8c9f-a880ecf36076" {
		t.Fatalf("FromName changed: %q", got)
	}
}
