//go:build amd64 && !purego

package vector

//go:noescape
func signDotsPOPCNT(codes *uint64, planes *uint64, words, rows int, out *int32)

// signDots writes to out, for each row of codes (words words a row), the
// weighted popcount Σ_j 2^j popcount(row & plane j), planes interleaved
// (word i's four at planes[4i:4i+4]). The assembly needs POPCNT, which
// every CPU with AVX2 has.
func signDots(codes, planes []uint64, words int, out []int32) {
	if len(out) == 0 {
		return
	}
	if kernelLevel >= levelAVX2 && len(codes) >= len(out)*words && len(planes) >= 4*words {
		signDotsPOPCNT(&codes[0], &planes[0], words, len(out), &out[0])
		return
	}
	signDotsGo(codes, planes, words, out)
}
