//go:build !dev

package app

// devWindowOrigins: a build not made by `wails dev` has no dev window (devwindow_dev.go).
func devWindowOrigins() []string { return nil }
