//go:build unix

package disk

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapReadOnly maps size bytes of f read-only and shared: pages come from
// the page cache as they are touched and count against no heap, and
// writing to them faults (no code path does).
func mapReadOnly(f *os.File, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
}

// unmap releases a mapping made by mapReadOnly.
func unmap(data []byte) error { return unix.Munmap(data) }

// mmapSupported tells whether files are mapped (else read into memory).
const mmapSupported = true

// mapAnon maps n bytes of zeroed, private, writable memory.
func mapAnon(n int) ([]byte, error) {
	return unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
}
