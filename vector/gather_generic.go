//go:build !amd64 || purego

package vector

// prefetchRow is a no-op without the assembly prefetch.
func prefetchRow(row []float32, bytes int) {}
