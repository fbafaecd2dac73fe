//go:build !amd64 || purego

package vector

// signDots is signDotsGo without assembly; wide is not used.
func signDots(codes, planes, wide []uint64, words int, out []int32) {
	signDotsGo(codes, planes, words, out)
}

// prefetchCodes is a no-op without the assembly prefetch.
func prefetchCodes(b *Int8Block, r int) {}
