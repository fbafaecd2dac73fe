// Package piecewise copies and checksums large slices in pieces, so that
// the goroutine doing it can be preempted between pieces.
//
// A copy (copy, slices.Clone, the copy inside slices.Grow or append) is
// one runtime memmove, and a CRC-32C is one assembly loop: neither can be
// preempted. Over hundreds of megabytes, a million-chunk graph's arrays
// or a stored index's bytes, one runs for a long time, and seconds where
// the copy page-faults through fresh memory on a machine whose faults are
// slow (a virtual machine under load: BENCHMARKS.md, "A million chunks,
// session 31"). Meanwhile the garbage collector's mark worker, needing to
// suspend that goroutine to scan its stack, spins on the other processor,
// and no query runs: perf showed a query of 2.7 s made of exactly that.
// Each piece is a call of a function that is never inlined: its prologue
// is where a goroutine asked to stop (by the scheduler or by the
// collector's stack scan) stops. A loop alone would not do: the signal
// that preempts a goroutine asynchronously nearly always lands inside the
// memmove, where it cannot stop, and the collector's suspendG would spin
// as before (perf showed it, with the copy in a plain loop). Between
// pieces the goroutine also gives way to searches (internal/yield: while
// a search is in flight or every core is busy with one): the large copies
// and checksums are a write's or an open's, and the searches come first.
package piecewise

import (
	"hash/crc32"
	"unsafe"

	"github.com/fonte-rag/fonte/internal/yield"
)

// Piece is how many bytes each piece moves or checksums: about a
// millisecond of work where memory is slowest.
const Piece = 1 << 20

// Copy copies src into dst, as copy does, in pieces of about Piece bytes,
// and returns the number of elements copied.
func Copy[E any](dst, src []E) int {
	n := min(len(dst), len(src))
	step := max(1, Piece/max(int(unsafe.Sizeof(*new(E))), 1))
	for at := 0; at < n; at += step {
		end := min(at+step, n)
		copyPiece(dst[at:end], src[at:end])
		yield.ToSearches()
	}
	return n
}

// copyPiece is one piece of Copy; its prologue is a preemption point.
//
//go:noinline
func copyPiece[E any](dst, src []E) { copy(dst, src) }

// updatePiece is one piece of Update; its prologue is a preemption
// point.
//
//go:noinline
func updatePiece(crc uint32, tab *crc32.Table, b []byte) uint32 { return crc32.Update(crc, tab, b) }

// Clone is slices.Clone, copied in pieces. A nil slice stays nil.
func Clone[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	out := make(S, len(s))
	Copy(out, s)
	return out
}

// Grow is slices.Grow, copied in pieces: it returns s with room for at
// least n more elements, its capacity doubled while small and grown by a
// quarter once large, as append does, or to what is asked if that is
// more. It panics if n is negative.
func Grow[S ~[]E, E any](s S, n int) S {
	if n < 0 {
		panic("piecewise.Grow: negative count")
	}
	if cap(s)-len(s) >= n {
		return s
	}
	grown := cap(s) + cap(s)/4
	if cap(s) < 256 {
		grown = 2 * cap(s)
	}
	out := make(S, len(s), max(len(s)+n, grown))
	Copy(out, s)
	return out
}

// Update is crc32.Update over b, in pieces of Piece bytes.
func Update(crc uint32, tab *crc32.Table, b []byte) uint32 {
	for len(b) > Piece {
		crc = updatePiece(crc, tab, b[:Piece])
		yield.ToSearches()
		b = b[Piece:]
	}
	return updatePiece(crc, tab, b)
}

// Checksum is crc32.Checksum over b, in pieces of Piece bytes.
func Checksum(b []byte, tab *crc32.Table) uint32 { return Update(0, tab, b) }
