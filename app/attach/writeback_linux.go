package attach

import "golang.org/x/sys/unix"

// startWriteback asks the kernel to start writing a range of f to disk now, without
// waiting: the fsync at the end of an upload then has little left to wait for.
func startWriteback(fd uintptr, off, n int64) {
	_ = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE) // a hint: the fsync is what counts
}
