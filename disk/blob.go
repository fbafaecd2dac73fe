package disk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// Blob files: "FONTEBLB", a uint32 version, a uint64 length, in version 2
// zero padding up to blobDataOff (so the bytes start 64-byte aligned in
// the file and in a mapping of it), the bytes, and a CRC-32C of every
// byte before it. Version 1 had no padding.

// encodeBlob writes a blob file.
func encodeBlob(w io.Writer, data []byte) (int64, uint32, error) {
	hdr := make([]byte, 0, blobDataOff)
	hdr = append(hdr, blobMagic[:]...)
	hdr = binary.LittleEndian.AppendUint32(hdr, blobVersion)
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(data)))
	hdr = hdr[:blobDataOff]
	s := newSummer(w)
	s.write(hdr)
	s.write(data)
	return s.finish()
}

// blobBounds checks a blob file's header, of a file of size bytes, and
// returns where its bytes are.
func blobBounds(path string, head []byte, size int64) (off, n int64, err error) {
	if size < blobHeaderLen+trailerLen || len(head) < blobHeaderLen || [8]byte(head[:8]) != blobMagic {
		return 0, 0, corrupt(path, "not a fonte blob")
	}
	switch v := binary.LittleEndian.Uint32(head[8:]); v {
	case 1:
		off = blobHeaderLen
	case blobVersion:
		off = blobDataOff
	default:
		return 0, 0, fmt.Errorf("%w: blob %s has version %d, this fonte reads versions 1 and %d", ErrFormatVersion, path, v, blobVersion)
	}
	u := binary.LittleEndian.Uint64(head[12:])
	if size < off+trailerLen || u != uint64(size-off-trailerLen) {
		return 0, 0, corrupt(path, "length %d does not match the file", u)
	}
	return off, int64(u), nil
}

// readBlob reads and checks a blob file.
func readBlob(path string, e blobEntry) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, wrapFile("reading blob", path, err)
	}
	if int64(len(data)) != e.Size {
		return nil, corrupt(path, "%d bytes, the manifest says %d", len(data), e.Size)
	}
	off, n, err := blobBounds(path, data, int64(len(data)))
	if err != nil {
		return nil, err
	}
	if err := checkSum(path, data, e.CRC32C); err != nil {
		return nil, err
	}
	return data[off : off+n : off+n], nil
}

// blobFile is a large blob mapped read-only, shared by the snapshots
// that hold its generation's blob; its checksum is verified once, by
// pread, when asked (the background pass of Snapshot.Verify, or
// MapBlob's caller through Snapshot.Verify).
type blobFile struct {
	path  string
	entry blobEntry

	mapOnce sync.Once
	data    []byte // the blob's bytes, in the mapping
	mapErr  error

	verifyOnce sync.Once
	verifyErr  error
	failed     atomic.Bool
}

// bytes maps the file on first use.
func (bf *blobFile) bytes() ([]byte, error) {
	bf.mapOnce.Do(func() { bf.data, bf.mapErr = bf.open() })
	return bf.data, bf.mapErr
}

func (bf *blobFile) open() ([]byte, error) {
	f, err := os.Open(bf.path)
	if err != nil {
		return nil, wrapFile("opening blob", bf.path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, wrapFile("reading blob", bf.path, err)
	}
	if st.Size() != bf.entry.Size {
		f.Close()
		return nil, corrupt(bf.path, "%d bytes, the manifest says %d", st.Size(), bf.entry.Size)
	}
	head := make([]byte, blobHeaderLen)
	if _, err := f.ReadAt(head, 0); err != nil {
		f.Close()
		return nil, wrapFile("reading blob", bf.path, err)
	}
	off, n, err := blobBounds(bf.path, head, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	var tr [trailerLen]byte
	if _, err := f.ReadAt(tr[:], st.Size()-trailerLen); err != nil {
		f.Close()
		return nil, wrapFile("reading blob", bf.path, err)
	}
	if sum := binary.LittleEndian.Uint32(tr[:]); sum != bf.entry.CRC32C {
		f.Close()
		return nil, corrupt(bf.path, "checksum mismatch (file says %08x, manifest says %08x)", sum, bf.entry.CRC32C)
	}
	if mmapSupported && n > 0 {
		if m, err := mapReadOnly(f, int(st.Size())); err == nil {
			runtime.AddCleanup(bf, mapped.release, mapped{f: f, data: m})
			return m[off : off+n : off+n], nil
		}
	}
	// No mapping: read the bytes, which verifies them too.
	f.Close()
	data, err := readBlob(bf.path, bf.entry)
	bf.verifyOnce.Do(func() { bf.verifyErr = err })
	return data, err
}

// verify checks the whole file's checksum once, by pread.
func (bf *blobFile) verify() error {
	bf.verifyOnce.Do(func() {
		f, err := os.Open(bf.path)
		if errors.Is(err, fs.ErrNotExist) {
			// Retention removed it: its generation is two commits old,
			// and the file, complete when mapped, cannot be re-read.
			return
		}
		if err != nil {
			bf.verifyErr = wrapFile("verifying blob", bf.path, err)
			bf.failed.Store(true)
			return
		}
		defer f.Close()
		bf.verifyErr = checkFile(f, bf.path, "verifying blob", bf.entry.Size, bf.entry.CRC32C)
		bf.failed.Store(bf.verifyErr != nil)
	})
	return bf.verifyErr
}
