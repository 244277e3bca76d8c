// Package jsonlist keeps lists that go out as JSON from being null: an API answer or a
// frame always has [] where it has no items, so clients need not check for null.
//
// It imports nothing of Wisp; config, the frame catalog and the services all use it.
package jsonlist

// NonNil is s, or an empty list when s is nil.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
