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
// A segment is little-endian binary (version 3):
//
//	magic    8 bytes  "FONTESEG"
//	version  uint32   segmentVersion
//	dim      uint32
//	docs     uint32
//	chunks   uint64
//	metaLen  uint64
//	dirLen   uint64
//	int8Len  uint64   0: reserved for an int8 copy of the vectors
//	dirCRC   uint32   CRC-32C of the 52 header bytes before it and of dir
//	meta     metaLen bytes: for each document, in ID order, its fields,
//	         tags, metadata and chunks as uvarint-length-prefixed strings
//	         and zigzag varints (see segment.go)
//	padding  zero bytes up to a multiple of 8 from the file's start
//	dir      dirLen bytes, the directory (segdir.go), each part 8-aligned:
//	         per document its record's offset in meta (uint64), its first
//	         chunk (uint32, one more entry for the end), its ID's end in
//	         the ID block (uint32, likewise), the IDs concatenated in
//	         order; per chunk its record's offset (uint64) and its graph
//	         key (uint64, retrieve.ChunkKey); per document its language's
//	         number (a byte); the languages (uint32 count, then uint32
//	         length and bytes each, sorted)
//	padding  zero bytes up to a multiple of 64 from the file's start
//	vectors  chunks×dim float32, row-major, in the order of meta
//	crc      uint32   CRC-32C of every byte before it
//
// Version 2 (still read) had no directory and a checksum of the meta
// section in its 40-byte header; version 1 (still read) had neither
// checksum nor padding. Their meta sections are parsed at open and their
// directories built in memory.
//
// # Reading in place
//
// A version-3 segment is memory-mapped read-only (golang.org/x/sys/unix;
// read into memory where mapping is unavailable and on Windows), and
// opening it parses no document: the header, the sizes against the file
// and the manifest, the trailer against the manifest and the directory
// against its own checksum are checked, and the directory's offsets,
// counts and ID order are validated, so that every lookup through it stays
// inside the file. A chunk or document is decoded from the meta section
// when it is asked for (a search's hits, a document's record), with
// strings of its own; a vector is a slice of the mapping. A snapshot of a
// million chunks costs its directories (about 30 bytes a chunk) and the
// vector rows' slice headers, whatever the text.
//
// The whole file's checksum is verified by a background pass
// (Snapshot.Verify) that reads the file with pread, so it does not make
// the file resident; once it finds a mismatch, or a record fails to
// decode, Store.Snapshot returns ErrCorrupt naming the file, and a writer
// verifies its base before it copies anything. A mapping lives as long as
// a Snapshot holding the segment: rows a Snapshot hands out are valid
// while it (or an index built over it, which keeps it) is reachable, and
// a cleanup unmaps the file once none is.
//
// Chunks are numbered segment by segment in the manifest's order. The
// derived indexes (derived.go) are tied to that numbering through the
// list of segment files they were built over, which is why a commit that
// only writes blobs never merges segments.
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
