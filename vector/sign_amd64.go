//go:build amd64 && !purego

package vector

import "unsafe"

//go:noescape
func signDotsPOPCNT(codes *uint64, planes *uint64, words, blocks int, out *int32)

//go:noescape
func signEstimateVPOPCNT(codes *uint64, planes *uint64, words, blocks int, pop *uint16, factor *float32, c *signConsts, out *float32, masks *uint8)

// hasVPOPCNT says the CPU counts bits in vector registers (AVX-512
// VPOPCNTDQ, CPUID leaf 7, ECX bit 14).
var hasVPOPCNT = func() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, c7, _ := cpuid(7, 0)
	return c7&(1<<14) != 0
}()

// signDots writes to out, for each row of codes (words words a row, in
// blocks of signLanes rows: see signLanes), the weighted popcount
// Σ_j 2^j popcount(row & plane j), planes interleaved (word i's four at
// planes[4i:4i+4]); len(out) is a multiple of signLanes. The assembly
// needs POPCNT, which every CPU with AVX2 has; with AVX-512 VPOPCNTDQ,
// estimate takes signEstimateKernel instead.
func signDots(codes, planes []uint64, words int, out []int32) {
	if len(out) == 0 || words == 0 {
		return
	}
	if len(out)%signLanes != 0 || len(codes) < len(out)*words || len(planes) < 4*words {
		panic("vector: signDots: codes, planes or out of the wrong length")
	}
	switch {
	case kernelLevel >= levelAVX2:
		signDotsPOPCNT(&codes[0], &planes[0], words, len(out)/signLanes, &out[0])
	default:
		signDotsGo(codes, planes, words, out)
	}
}

// signEstimateKernel writes, with AVX-512 VPOPCNTDQ, the estimates of
// whole blocks of rows (codes, their counts pop and factors factor) to
// out and their marks at or above c.thr to masks, as estimate does in Go
// but in float32 throughout, and reports whether it did; without the
// instructions it does nothing.
func signEstimateKernel(codes, planes []uint64, words int, pop []uint16, factor []float32, c *signConsts, out []float32, masks []uint8) bool {
	if kernelLevel != levelAVX512 || !hasVPOPCNT || words == 0 || len(out) == 0 {
		return false
	}
	blocks := len(out) / signLanes
	if len(out)%signLanes != 0 || len(codes) < len(out)*words || len(planes) < 4*words || len(pop) < len(out) || len(factor) < len(out) || len(masks) < blocks {
		panic("vector: signEstimateKernel: slices of the wrong length")
	}
	signEstimateVPOPCNT(&codes[0], &planes[0], words, blocks, &pop[0], &factor[0], c, &out[0], &masks[0])
	return true
}

// prefetchCodes asks for row r's int8 codes of b to be brought into the
// cache, so that scoring scattered rows overlaps their reads.
func prefetchCodes(b *Int8Block, r int) {
	node := uint32(r)
	prefetchNodesT0(unsafe.Pointer(unsafe.SliceData(b.Codes)), uintptr(b.Stride), &node, 1, b.Stride)
}
