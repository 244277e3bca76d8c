// Package ids makes the random identifiers Wisp gives its records.
package ids

import (
	"crypto/rand"
	"encoding/hex"
)

// New returns a random (version 4) UUID.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on Linux
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
