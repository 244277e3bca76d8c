package fault

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestKindOf(t *testing.T) {
	notFound := NotFound.Errorf("conversation not found")
	tests := []struct {
		name string
		err  error
		want Kind
		msg  string
	}{
		{"plain", errors.New("disk full"), Internal, "disk full"},
		{"kind", Invalid.Errorf("text is longer than %d characters", 10), Invalid, "text is longer than 10 characters"},
		{"wrapped", fmt.Errorf("deliver: %w", notFound), NotFound, "deliver: conversation not found"},
		{"wraps", Conflict.Errorf("cannot restart: %w", context.Canceled), Conflict, "cannot restart: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KindOf(tt.err); got != tt.want {
				t.Errorf("KindOf = %v, want %v", got, tt.want)
			}
			if !Is(tt.err, tt.want) || tt.err.Error() != tt.msg {
				t.Errorf("Is/Error: %v %q", Is(tt.err, tt.want), tt.err.Error())
			}
		})
	}
	if !errors.Is(Conflict.Errorf("x: %w", context.Canceled), context.Canceled) {
		t.Error("the wrapped error is lost")
	}
	if Is(nil, Internal) {
		t.Error("nil is not a fault")
	}
	if Limited.String() != "limited" || TooLarge.String() != "too large" || Upstream.String() != "upstream" || Kind(200).String() != "kind 200" {
		t.Error("names")
	}
}
