package ids

import (
	"crypto/sha256"
	"encoding/hex"
)

// FromName returns the UUID that name always gives: the first 16 bytes of its
// SHA-256 with the version 8 (custom) and RFC 9562 variant bits set. Records brought
// in from elsewhere get their ids this way, so bringing them in twice finds them.
func FromName(name string) string {
	sum := sha256.Sum256([]byte(name))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
