//go:build !sdk

package main

// linkSDKs does nothing in the plain floor; built with -tags sdk, the floor
// links and sets up the model SDKs Wisp uses (sdk.go).
func linkSDKs() {}
