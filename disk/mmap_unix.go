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
