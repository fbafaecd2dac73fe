//go:build amd64 && !purego

package vector

import "unsafe"

// kernelLevel is set once by init from CPUID and only ever lowered by
// tests that compare the levels.
var (
	kernelLevel int  // the kernels in use
	bestLevel   int  // the best level this CPU supports
	hasVNNI     bool // AVX-512 VNNI, for the int8 kernels
)

func init() {
	bestLevel, hasVNNI = detectCPU()
	kernelLevel = bestLevel
}

// detectCPU reads the CPU's features with CPUID and checks with XGETBV
// that the operating system saves the vector registers the kernels use.
func detectCPU() (level int, vnni bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return levelGeneric, false
	}
	_, _, c1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if c1&(fma|osxsave|avx) != fma|osxsave|avx {
		return levelGeneric, false
	}
	xcr0, _ := xgetbv()
	if xcr0&0x6 != 0x6 { // XMM and YMM state
		return levelGeneric, false
	}
	_, b7, c7, _ := cpuid(7, 0)
	const (
		avx2     = 1 << 5
		avx512f  = 1 << 16
		avx512dq = 1 << 17
		avx512bw = 1 << 30
		avx512vl = 1 << 31
		vnniBit  = 1 << 11 // in ECX
	)
	if b7&avx2 == 0 {
		return levelGeneric, false
	}
	const avx512all = avx512f | avx512dq | avx512bw | avx512vl
	if b7&avx512all != avx512all || xcr0&0xe0 != 0xe0 { // opmask, ZMM0-15 upper halves, ZMM16-31
		return levelAVX2, false
	}
	return levelAVX512, c7&vnniBit != 0
}

// cpuid executes CPUID with the given leaf and subleaf.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns the low and high halves of XCR0.
func xgetbv() (eax, edx uint32)

// The assembly kernels take raw pointers; lengths are checked by the Go
// wrappers below.

//go:noescape
func dotAVX2(a, b *float32, n int) float32

//go:noescape
func dotAVX512(a, b *float32, n int) float32

//go:noescape
func dotRowsAVX2(q, x *float32, dim, n int, out *float32)

//go:noescape
func dotRowsAVX512(q, x *float32, dim, n int, out *float32)

//go:noescape
func dotQuadAVX2(quad, x *float32, dim, nr int, out *float32, ldo int)

//go:noescape
func dotQuadAVX512(quad, x *float32, dim, nr int, out *float32, ldo int)

//go:noescape
func firstGEAVX2(s *float32, n int, thr float32) int

//go:noescape
func firstGEAVX512(s *float32, n int, thr float32) int

// firstGE returns the index of the first score >= thr, or len(s). It is
// the filter in front of the top-k heap: once the heap is full, almost
// every score of a large index is below the root.
func firstGE(s []float32, thr float32) int {
	i := 0
	if n := len(s) &^ 15; n > 0 && kernelLevel >= levelAVX2 {
		if kernelLevel == levelAVX512 {
			i = firstGEAVX512(unsafe.SliceData(s), n, thr)
		} else {
			i = firstGEAVX2(unsafe.SliceData(s), n, thr)
		}
		if i < n {
			return i
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= thr {
			return i
		}
	}
	return i
}

//go:noescape
func prefetchL2(p *float32, n int)

// prefetch asks for the cache lines of s to be brought into L2. It is a
// hint: nothing is read, and addresses past s are never touched.
func prefetch(s []float32) {
	if len(s) > 0 {
		prefetchL2(unsafe.SliceData(s), len(s))
	}
}

// dot is Dot without the length check; len(b) >= len(a).
func dot(a, b []float32) float32 {
	switch kernelLevel {
	case levelAVX512:
		return dotAVX512(unsafe.SliceData(a), unsafe.SliceData(b), len(a))
	case levelAVX2:
		return dotAVX2(unsafe.SliceData(a), unsafe.SliceData(b), len(a))
	}
	return dotGeneric(a, b)
}

// dotRows sets out[r] to the inner product of q with row r of data, rows
// of len(q) values, for every r < len(out). Four rows share each load of
// the query.
func dotRows(q, data, out []float32) {
	n, dim := len(out), len(q)
	if n == 0 || dim == 0 {
		clear(out)
		return
	}
	_ = data[n*dim-1]
	switch kernelLevel {
	case levelAVX512:
		dotRowsAVX512(unsafe.SliceData(q), unsafe.SliceData(data), dim, n, unsafe.SliceData(out))
	case levelAVX2:
		dotRowsAVX2(unsafe.SliceData(q), unsafe.SliceData(data), dim, n, unsafe.SliceData(out))
	default:
		dotRowsGeneric(q, data, out)
	}
}

// hasQuad reports whether dotQuad is an assembly tile worth packing
// queries for; without it a batch scores each query with dotRows.
func hasQuad() bool { return kernelLevel >= levelAVX2 }

// dotQuad scores the four packed queries of quad (see packQuad) against nr
// rows of data: out[j*ldo+r] for j < 4 and r < nr. The assembly tiles
// hold queries and rows in registers, so each loaded row chunk serves four
// queries and each loaded query chunk several rows.
func dotQuad(quad []float32, data []float32, dim, nr int, out []float32, ldo int) {
	if nr == 0 || dim == 0 {
		for j := range quadQueries {
			clear(out[j*ldo : j*ldo+nr])
		}
		return
	}
	_ = quad[quadLen(dim)-1]
	_ = data[nr*dim-1]
	_ = out[(quadQueries-1)*ldo+nr-1]
	switch kernelLevel {
	case levelAVX512:
		dotQuadAVX512(unsafe.SliceData(quad), unsafe.SliceData(data), dim, nr, unsafe.SliceData(out), ldo)
	case levelAVX2:
		dotQuadAVX2(unsafe.SliceData(quad), unsafe.SliceData(data), dim, nr, unsafe.SliceData(out), ldo)
	default:
		dotQuadGeneric(quad, data, dim, nr, out, ldo)
	}
}

//go:noescape
func dotInt8FlatVNNI(qu *uint8, codes *int8, stride, n int, scale *float32, csum *int32, out *float32, qscale float32)

//go:noescape
func dotInt8FlatAVX2(qs *int8, codes *int8, stride, n int, scale *float32, out *float32, qscale float32)

// dotInt8FlatRows scores the prepared query q against the len(out) rows of
// codes (stride bytes each, a multiple of 64): out[r] is the exact integer
// inner product of the codes, converted to float32, times scale[r], times
// q.scale. Every kernel gives the same bits.
func dotInt8FlatRows(q *flat8Query, codes []int8, stride int, scale []float32, csum []int32, out []float32) {
	n := len(out)
	if n == 0 {
		return
	}
	_ = codes[n*stride-1]
	_ = scale[n-1]
	_ = csum[n-1]
	switch {
	case kernelLevel == levelAVX512 && hasVNNI:
		dotInt8FlatVNNI(unsafe.SliceData(q.u), unsafe.SliceData(codes), stride, n,
			unsafe.SliceData(scale), unsafe.SliceData(csum), unsafe.SliceData(out), q.scale)
	case kernelLevel >= levelAVX2:
		dotInt8FlatAVX2(unsafe.SliceData(q.codes), unsafe.SliceData(codes), stride, n,
			unsafe.SliceData(scale), unsafe.SliceData(out), q.scale)
	default:
		dotInt8FlatRowsGeneric(q, codes, stride, scale, out)
	}
}

// int8Kernel reports whether dotInt8FlatRows runs an assembly kernel.
func int8Kernel() bool { return kernelLevel >= levelAVX2 }
