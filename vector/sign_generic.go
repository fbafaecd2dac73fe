//go:build !amd64 || purego

package vector

// signDots is signDotsGo without assembly.
func signDots(codes, planes []uint64, words int, out []int32) {
	signDotsGo(codes, planes, words, out)
}
