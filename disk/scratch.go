package disk

import "unsafe"

// A blob a commit writes from memory (the graph blob: hundreds of
// megabytes at a million chunks) is encoded in anonymous memory outside
// the Go heap. Allocated on the heap, it grew the heap by its size at
// once while readers were served: a collection started with the heap
// past its goal, and the queries that allocated meanwhile were made to
// mark in its stead.

// mapScratch returns an empty buffer of capacity n outside the Go heap
// where the platform can map one (else on the heap); releaseScratch gives
// it back.
func mapScratch(n int) []byte {
	b, err := mapAnon(n)
	if err != nil {
		return make([]byte, 0, n)
	}
	mappedRegions.Store(unsafe.SliceData(b), true)
	return b[:0]
}

// releaseScratch unmaps a buffer mapScratch returned; nothing may use it
// afterwards.
func releaseScratch(b []byte) { unmapIfMapped(b[:cap(b)]) }
