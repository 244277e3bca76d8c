package terminal

import (
	"crypto/rand"
	"strconv"
	"time"
)

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

// newRunID returns run-<unix ms>-<6 base36 characters> (seed 004).
func newRunID(now time.Time) string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on Linux
	for i := range b {
		b[i] = base36[int(b[i])%len(base36)]
	}
	return "run-" + strconv.FormatInt(now.UnixMilli(), 10) + "-" + string(b[:])
}
