package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/app/wire"
)

// fakeExpressions records what it was asked to show.
type fakeExpressions struct{ shown *[]wire.Expression }

func (f fakeExpressions) Show(_ context.Context, e wire.Expression) { *f.shown = append(*f.shown, e) }

func TestExpressionRoute(t *testing.T) {
	var shown []wire.Expression
	s := serveAPI(t, "", Options{Expressions: fakeExpressions{&shown}})
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]string{"expression": "smug"}, "Unknown expression: smug"},
		{map[string]string{}, "expression is required"},
		{map[string]any{"expression": "happy", "intensity": 1.5}, "intensity must be between 0 and 1"},
		{map[string]any{"expression": "happy", "intensity": -0.1}, "intensity must be between 0 and 1"},
		{map[string]any{"expression": "happy", "durationMs": -1}, "durationMs must be between 0 and 60000"},
		{map[string]any{"expression": "happy", "durationMs": 60001}, "durationMs must be between 0 and 60000"},
		{map[string]any{"expression": 3}, ""},
		{`{"expression": "happy"`, ""},
	} {
		got := s.call("POST", "/api/expression", tc.body, nil)
		if got.status != 400 || (tc.want != "" && got.body["error"] != tc.want) {
			t.Errorf("POST %v: %d %v, want 400 %q", tc.body, got.status, got.body, tc.want)
		}
	}
	if len(shown) != 0 {
		t.Fatalf("a refused expression was shown: %+v", shown)
	}
	for _, body := range []any{
		map[string]any{"expression": "happy"},
		map[string]any{"expression": "sad", "intensity": 0.4, "durationMs": 1500},
		map[string]any{"expression": "neutral"},
	} {
		if got := s.call("POST", "/api/expression", body, nil); got.status != 200 || got.body["ok"] != true {
			t.Fatalf("POST %v: %d %v", body, got.status, got.body)
		}
	}
	want := []wire.Expression{
		wire.NewExpression(wire.ExpressionHappy, 1, 0, "api"),
		wire.NewExpression(wire.ExpressionSad, 0.4, 1500, "api"),
		wire.NewExpression(wire.ExpressionNeutral, 1, 0, "api"),
	}
	if len(shown) != len(want) {
		t.Fatalf("shown %+v", shown)
	}
	for i := range want {
		if shown[i] != want[i] {
			t.Errorf("shown %d = %+v, want %+v", i, shown[i], want[i])
		}
	}
}

// Without an Expressions service the route is not there.
func TestExpressionRouteAbsent(t *testing.T) {
	s := serveAPI(t, "", Options{})
	if got := s.call("POST", "/api/expression", map[string]string{"expression": "happy"}, nil); got.status != 404 {
		t.Fatalf("POST without the service: %d %v", got.status, got.body)
	}
}
