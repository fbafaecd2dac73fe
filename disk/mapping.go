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

	"github.com/fonte-rag/fonte/vector"
)

// segFile is an open segment read in place: a read-only memory map of
// the file (or, where mapping is unavailable, the file read into memory)
// whose meta section, directory and vector block the snapshot reads
// without copying. Snapshots that hold the segment hold its segFile, so
// the mapping lives as long as any of them; when the last is collected a
// cleanup unmaps it and closes the file. Row slices handed out by a
// Snapshot point into the mapping, so they are valid only while their
// Snapshot (or an index built over it) is reachable; strings decoded from
// the meta section are copied out of it (see decodeChunk).
//
// The checksum of the whole file is verified once, lazily (verify): at
// open only the header, the directory's own checksum and the trailer
// against the manifest are checked, so opening reads no text and no
// vector.
type segFile struct {
	path  string
	entry segmentEntry
	dim   int
	meta  []byte            // the meta section: document and chunk records
	dir   segDir            // where each record starts, keys, IDs, languages
	vecs  []float32         // the vector block, chunks×dim
	int8  *vector.Int8Block // the int8 copy exact search scans, or nil
	f     *os.File          // open while mapped, for verify; closed by the cleanup

	once      sync.Once
	verifyErr error
	failed    atomic.Bool           // verify found a mismatch
	bad       atomic.Pointer[error] // a record that did not decode
}

// damaged records that a record of the file did not decode: the file's
// checksum will not match either, but the store closes now rather than
// when the background check gets there.
func (sf *segFile) damaged(err error) error {
	err = corrupt(sf.path, "%v", err)
	sf.bad.CompareAndSwap(nil, &err)
	return err
}

func (sf *segFile) numDocs() int   { return len(sf.dir.docOff) }
func (sf *segFile) numChunks() int { return len(sf.dir.chunkOff) }

// markVerified records that the file's checksum needs no check: it was
// verified while read, or written by this process.
func (sf *segFile) markVerified() { sf.once.Do(func() {}) }

// checked returns the error of a finished check that failed, without
// waiting for one that is running.
func (sf *segFile) checked() error {
	if sf.failed.Load() {
		return sf.verifyErr
	}
	if p := sf.bad.Load(); p != nil {
		return *p
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

// mapFile returns the bytes of f, a file of size bytes: mapped read-only
// when it can be (sf keeps f open and a cleanup unmaps it), else read into
// memory, in which case the whole file's checksum is verified on the way.
func (sf *segFile) mapFile(f *os.File, size int64) ([]byte, error) {
	if mmapSupported {
		if data, err := mapReadOnly(f, int(size)); err == nil {
			sf.f = f
			runtime.AddCleanup(sf, mapped.release, mapped{f: f, data: data})
			return data, nil
		}
		// A file system that cannot map (some FUSE and network mounts)
		// falls back to reading.
	}
	defer f.Close()
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, wrapFile("reading segment", sf.path, err)
	}
	if err := checkSum(sf.path, data, sf.entry.CRC32C); err != nil {
		sf.verifyErr = err
		return nil, err
	}
	sf.markVerified()
	return data, nil
}

// floatView is b's little-endian float32s: in place on a little-endian
// machine when b is aligned for them, else decoded into memory.
func floatView(b []byte) []float32 {
	n := len(b) / 4
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 == 0 {
		return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	out := make([]float32, n)
	decodeFloats(out, b)
	return out
}

// verify checks the whole file's checksum once, reading it with pread
// through the segment's open file rather than through the mapping, so the
// check does not make the vectors resident in this process (and works
// after retention has removed the file's name).
func (sf *segFile) verify() error {
	sf.once.Do(func() {
		sf.verifyErr = checkFile(sf.f, sf.path, "verifying segment", sf.entry.Size, sf.entry.CRC32C)
		if sf.verifyErr != nil {
			sf.failed.Store(true)
		}
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
