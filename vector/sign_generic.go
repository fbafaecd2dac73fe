//go:build !amd64 || purego

package vector

// signDots is signDotsGo without assembly.
func signDots(codes, planes []uint64, words int, out []int32) {
	signDotsGo(codes, planes, words, out)
}

// prefetchCodes is a no-op without the assembly prefetch.
func prefetchCodes(b *Int8Block, r int) {}

// signEstimateKernel has no assembly here: estimate computes in Go.
func signEstimateKernel(codes, planes []uint64, words int, pop []uint16, factor []float32, c *signConsts, out []float32, masks []uint8) bool {
	return false
}
