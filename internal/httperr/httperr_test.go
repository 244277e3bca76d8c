package httperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorKeepsItsStatusThroughWrapping(t *testing.T) {
	err := fmt.Errorf("saving: %w", New(409, "busy: %d runs", 2))
	var e *Error
	if !errors.As(err, &e) || e.HTTPStatus() != 409 || e.Error() != "busy: 2 runs" {
		t.Fatalf("got %v", e)
	}
}
