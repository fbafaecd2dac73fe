package disk

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// segFile is an open version-2 segment whose vector block is read in
// place: a read-only memory map of the file (or, where mapping is
// unavailable, the block read into memory). Snapshots that hold the
// segment hold its segFile, so the mapping lives as long as any of them;
// when the last is collected a cleanup unmaps it and closes the file. Row
// slices handed out by a Snapshot point into the mapping, so they are
// valid only while their Snapshot (or an index built over it) is
// reachable.
//
// The checksum of the whole file is verified once, lazily (verify): at
// open only the header, the meta section's own checksum and the trailer
// against the manifest are checked, so opening reads no vector.
type segFile struct {
	path  string
	entry segmentEntry
	vecs  []float32 // the vector block, chunks×dim
	f     *os.File  // open while mapped, for verify; closed by the cleanup

	once      sync.Once
	verifyErr error
	failed    atomic.Bool // verify found a mismatch
}

// markVerified records that the file's checksum needs no check: it was
// verified while read, or written by this process.
func (sf *segFile) markVerified() { sf.once.Do(func() {}) }

// checked returns the error of a finished check that failed, without
// waiting for one that is running.
func (sf *segFile) checked() error {
	if sf.failed.Load() {
		return sf.verifyErr
	}
	return nil
}

// mapped is what a segFile's cleanup releases.
type mapped struct {
	f    *os.File
	data []byte // nil when the block was read into memory
}

func (m mapped) release() {
	if m.data != nil {
		unmap(m.data)
	}
	m.f.Close()
}

// littleEndian: the file's float32s can be read in place only on a
// little-endian machine; elsewhere they are decoded into memory.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// mapVectors gives sf its vector block at [off, off+4·n) of f, a file of
// size bytes: mapped in place when it can be, else read and decoded, in
// which case the whole file's checksum is verified on the way.
func (sf *segFile) mapVectors(f *os.File, size, off int64, n int) error {
	if n == 0 {
		f.Close()
		sf.markVerified() // the header and meta were checked at open
		return nil
	}
	if mmapSupported && littleEndian {
		if data, err := mapReadOnly(f, int(size)); err == nil {
			block := data[off : off+4*int64(n)]
			sf.vecs = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(block))), n)
			sf.f = f
			runtime.AddCleanup(sf, mapped.release, mapped{f: f, data: data})
			return nil
		}
		// A file system that cannot map (some FUSE and network mounts)
		// falls back to reading.
	}
	defer f.Close()
	sf.vecs = make([]float32, n)
	crc := crc32.New(castagnoli)
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, off)); err != nil {
		return wrapFile("reading segment", sf.path, err)
	}
	buf := make([]byte, min(4*int64(n), ioBlock))
	for done := 0; done < n; {
		b := buf[:4*min(n-done, len(buf)/4)]
		if _, err := f.ReadAt(b, off+4*int64(done)); err != nil {
			return wrapFile("reading segment", sf.path, err)
		}
		crc.Write(b)
		decodeFloats(sf.vecs[done:done+len(b)/4], b)
		done += len(b) / 4
	}
	if _, err := io.Copy(crc, io.NewSectionReader(f, off+4*int64(n), size-trailerLen-off-4*int64(n))); err != nil {
		return wrapFile("reading segment", sf.path, err)
	}
	if got := crc.Sum32(); got != sf.entry.CRC32C {
		sf.verifyErr = corrupt(sf.path, "checksum mismatch (content hashes to %08x, manifest says %08x)", got, sf.entry.CRC32C)
		return sf.verifyErr
	}
	sf.markVerified()
	return nil
}

// verify checks the whole file's checksum once, reading it with pread
// through the segment's open file rather than through the mapping, so the
// check does not make the vectors resident in this process (and works
// after retention has removed the file's name).
func (sf *segFile) verify() error {
	sf.once.Do(func() {
		sf.verifyErr = checkFile(sf.f, sf.path, "verifying segment", sf.entry.Size, sf.entry.CRC32C)
		sf.failed.Store(sf.verifyErr != nil)
	})
	return sf.verifyErr
}

// checkFile verifies by pread that the CRC-32C of f's bytes before its
// trailer (f is size bytes) is want, the manifest's.
func checkFile(f *os.File, path, what string, size int64, want uint32) error {
	crc := crc32.New(castagnoli)
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, size-trailerLen)); err != nil {
		return wrapFile(what, path, err)
	}
	if got := crc.Sum32(); got != want {
		return corrupt(path, "checksum mismatch (content hashes to %08x, manifest says %08x)", got, want)
	}
	return nil
}
