package files

import (
	"fmt"

	udiff "github.com/aymanbagabas/go-udiff"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// unified is the unified diff from before to after, labelled with the file's path
// in its root (a/… and b/…; /dev/null for a new file). The line diff is go-udiff's,
// whose search is bounded, so a huge or hostile file costs bounded time; the inputs
// are bounded by MaxEditBytes and the diff by MaxDiffBytes.
func unified(rel string, existed bool, before, after string) (string, error) {
	from := "a/" + rel
	if !existed {
		from = "/dev/null"
	}
	edits := udiff.Lines(before, after)
	d, err := udiff.ToUnified(from, "b/"+rel, before, edits, diffContext)
	if err != nil {
		return "", fmt.Errorf("diff: %w", err)
	}
	if len(d) > MaxDiffBytes {
		return "", fmt.Errorf("the change's diff is %d bytes, over the %d a card shows: make smaller changes", len(d), MaxDiffBytes)
	}
	return d, nil
}
