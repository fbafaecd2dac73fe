// Package disk is fonte's embedded default store: one folder (by default
// ./.fonte) holding documents, their chunks and one vector per chunk,
// written crash-safely and incrementally.
//
// # Model
//
// A Store holds a sequence of generations. Each generation is a complete,
// immutable set of Records (a document, its chunks, their text hashes and
// vectors, and a little metadata) plus named opaque blobs the engine may
// persist with it (a frozen embedder, a serialized index). Snapshot returns
// the latest committed generation loaded in memory; Update runs a
// transaction that starts from it and commits a new generation atomically
// when its function returns nil.
//
// # On-disk layout
//
//	DIR/manifest            JSON, the only mutable file, replaced atomically
//	DIR/manifest.tmp        the next manifest while it is being written
//	DIR/lock                flock'ed by the one writer (empty)
//	DIR/seg-<gen>-<n>.fseg  immutable segment files
//	DIR/blob-<gen>-<n>.fblob immutable blob files
//
// The manifest records the format version, the store's Config (analyzer,
// chunker, embedder, dimension), a random store id, the generation number,
// the commit time, every live segment and blob file with its size and
// CRC-32C, and the files of the previous generation that are kept for
// readers ("retained").
//
// A segment is little-endian binary (version 2):
//
//	magic    8 bytes  "FONTESEG"
//	version  uint32   segmentVersion
//	dim      uint32
//	docs     uint32
//	chunks   uint64
//	metaLen  uint64
//	metaCRC  uint32   CRC-32C of the 36 header bytes before it and of meta
//	meta     metaLen bytes: for each document, in ID order, its fields,
//	         tags, metadata and chunks as uvarint-length-prefixed strings
//	         and zigzag varints (see segment.go)
//	padding  zero bytes up to a multiple of 64 from the file's start
//	vectors  chunks×dim float32, row-major, in the order of meta
//	crc      uint32   CRC-32C of every byte before it
//
// Version 1 (still read, never written) had no metaCRC and no padding.
//
// # Reading in place
//
// A version-2 segment is memory-mapped read-only (golang.org/x/sys/unix;
// read into memory where mapping is unavailable, on Windows and on
// big-endian machines): the vector block is aligned, so a chunk's vector
// is a slice of the mapping and opening reads no vector. Opening checks
// the header, the sizes against the file and the manifest, the trailer
// against the manifest and the meta section against its own checksum,
// then parses the meta section. The whole file's checksum is verified by
// a background pass (Snapshot.Verify) that reads the file with pread, so
// it does not make the vectors resident; once it finds a mismatch,
// Store.Snapshot returns ErrCorrupt naming the file, and a writer verifies
// its base before it copies anything. A mapping lives as long as a
// Snapshot holding the segment: rows a Snapshot hands out are valid while
// it (or an index built over it, which keeps it) is reachable, and a
// cleanup unmaps the file once none is.
//
// Blobs under a megabyte are loaded with their generation; larger ones (a
// serialized index) are checked for size at load and read, with their
// checksum verified, only when asked for (Snapshot.ReadBlob), so a
// snapshot never holds a copy of what its user decodes. A blob file is
// "FONTEBLB", a uint32 version, a uint64 length, the bytes and a CRC-32C
// trailer.
//
// # Commits
//
// A commit writes new segments only for the documents put in the
// transaction, plus the surviving documents of any segment that lost one
// (deleted or replaced), so a deleted document's text and vectors are in no
// live file. Untouched segments are reused by reference. New files are
// written and fsynced, the directory is fsynced, then manifest.tmp is
// written, fsynced and renamed over manifest, and the directory is fsynced
// again. A crash at any point leaves either the previous manifest or the
// new one, each referencing only complete, checksummed files.
//
// Segments are cut at Options.SegmentBytes (16 MiB by default), which bounds
// the rewrite a replaced document costs. Merge policy: a segment under a
// quarter of that size is small; when a commit would keep more than eight
// small segments, all of them are rewritten, together with the
// transaction's documents, into full-size ones.
//
// # Readers and retention
//
// Readers take no lock: they read the manifest and then its files. The
// files of the previous generation are deleted only by the commit after
// the next one (or by Purge), so a reader that read the manifest just
// before a commit can still read every file it names; a reader that finds
// a segment gone retries once with the new manifest. Segments a reader
// already holds in memory are reused when it moves to a new generation, so
// a small commit costs readers only the new segments. Purge removes every
// file the current generation does not reference, which is what makes a
// deletion leave no bytes behind.
//
// One writer at a time: Update takes an exclusive flock on DIR/lock, and
// waits up to Options.LockTimeout for another process to finish before
// failing with ErrLocked. The lock is advisory and process-wide on Linux,
// macOS and the BSDs; on other systems only the Updates of one Store
// exclude each other. The first Update after a crash removes the files the crashed
// writer left.
package disk
