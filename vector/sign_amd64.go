//go:build amd64 && !purego

package vector

import "unsafe"

//go:noescape
func signDotsPOPCNT(codes *uint64, planes *uint64, words, rows int, out *int32)

//go:noescape
func signDotsVPOPCNT(codes *uint64, planes *uint64, words, rows int, out *int32)

// hasVPOPCNT says the CPU counts bits in vector registers (AVX-512
// VPOPCNTDQ, CPUID leaf 7, ECX bit 14).
var hasVPOPCNT = func() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, c7, _ := cpuid(7, 0)
	return c7&(1<<14) != 0
}()

// signDots writes to out, for each row of codes (words words a row), the
// weighted popcount Σ_j 2^j popcount(row & plane j), planes interleaved
// (word i's four at planes[4i:4i+4]) and, for the AVX-512 kernel,
// plane-major in wide (plane j at wide[8j:8j+8]). The scalar assembly
// needs POPCNT, which every CPU with AVX2 has; the vector one a row of at
// most 8 words.
func signDots(codes, planes, wide []uint64, words int, out []int32) {
	if len(out) == 0 {
		return
	}
	if len(codes) < len(out)*words || len(planes) < 4*words {
		panic("vector: signDots: codes or planes too short")
	}
	switch {
	case kernelLevel == levelAVX512 && hasVPOPCNT && words <= 8 && len(wide) == 32:
		signDotsVPOPCNT(&codes[0], &wide[0], words, len(out), &out[0])
	case kernelLevel >= levelAVX2:
		signDotsPOPCNT(&codes[0], &planes[0], words, len(out), &out[0])
	default:
		signDotsGo(codes, planes, words, out)
	}
}

// prefetchCodes asks for row r's int8 codes of b to be brought into the
// cache, so that scoring scattered rows overlaps their reads.
func prefetchCodes(b *Int8Block, r int) {
	node := uint32(r)
	prefetchNodesT0(unsafe.Pointer(unsafe.SliceData(b.Codes)), uintptr(b.Stride), &node, 1, b.Stride)
}
