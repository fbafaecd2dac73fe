package vector

import "unsafe"

// A graph's arrays reach hundreds of megabytes at a million nodes, and a
// single copy of one (slices.Clone, or the copy inside slices.Grow) is
// one runtime memmove, which the Go scheduler cannot preempt. Copying
// into fresh memory, it page-faults through every page; where faults are
// slow (a virtual machine under load: BENCHMARKS.md, "A million chunks,
// session 31") it ran for seconds, while the garbage collector's mark
// worker, on the other processor, spun waiting to suspend it to scan its
// stack: the whole process stood still and a query took 2.7 s. The
// helpers below copy in pieces, and a loop's back edge between pieces is
// a point where the goroutine can be preempted.

// copyPiece is how many bytes each piece of a large copy moves.
const copyPiece = 1 << 20

// copyPreemptible copies src into dst (as copy does) in pieces of about
// copyPiece bytes.
func copyPreemptible[E any](dst, src []E) int {
	n := min(len(dst), len(src))
	size := int(unsafe.Sizeof(*new(E)))
	step := max(1, copyPiece/max(size, 1))
	for at := 0; at < n; at += step {
		copy(dst[at:min(at+step, n)], src[at:min(at+step, n)])
	}
	return n
}

// clonePreemptible is slices.Clone, copied in pieces. A nil slice stays
// nil.
func clonePreemptible[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	out := make(S, len(s))
	copyPreemptible(out, s)
	return out
}

// growPreemptible is slices.Grow, copied in pieces: it returns s with
// room for at least n more elements, growing its capacity by a quarter or
// to what is asked, whichever is more, as append does for large slices.
func growPreemptible[S ~[]E, E any](s S, n int) S {
	if n < 0 {
		panic("vector: growPreemptible: negative count")
	}
	if cap(s)-len(s) >= n {
		return s
	}
	out := make(S, len(s), max(len(s)+n, cap(s)+cap(s)/4))
	copyPreemptible(out, s)
	return out
}
