package api

import (
	"crypto/sha256"
	"crypto/subtle"
)

// tokens are the accepted secrets, kept as hashes so every comparison takes the same
// time whatever the lengths.
type tokens [][sha256.Size]byte

// newTokens keeps the non-empty secrets.
func newTokens(secrets ...string) tokens {
	var out tokens
	for _, s := range secrets {
		if s != "" {
			out = append(out, sha256.Sum256([]byte(s)))
		}
	}
	return out
}

// accepts compares t with every accepted secret in constant time. The empty token
// is never accepted.
func (ts tokens) accepts(t string) bool {
	sum := sha256.Sum256([]byte(t))
	ok := 0
	for i := range ts {
		ok |= subtle.ConstantTimeCompare(sum[:], ts[i][:])
	}
	return ok == 1 && t != ""
}
