package piecewise

import (
	"bytes"
	"hash/crc32"
	"slices"
	"testing"
)

// TestCopies checks the piecewise copies against the copies
// they stand in for, across piece boundaries and for a type wider than a
// byte, and that growing keeps room as slices.Grow does.
func TestCopies(t *testing.T) {
	for _, n := range []int{0, 1, Piece/4 - 1, Piece / 4, Piece/4 + 1, 3*Piece/4 + 7} {
		src := make([]uint32, n)
		for i := range src {
			src[i] = uint32(i*2654435761) ^ 0x9e3779b9
		}
		if got := Clone(src); !slices.Equal(got, src) || (n > 0 && &got[0] == &src[0]) {
			t.Fatalf("n=%d: clone differs from its source or shares it", n)
		}
		for _, more := range []int{0, 1, 5, n + 3} {
			g := Grow(src, more)
			if !slices.Equal(g, src) || cap(g)-len(g) < more {
				t.Fatalf("n=%d, more=%d: grown to len %d cap %d, or its elements differ", n, more, len(g), cap(g))
			}
		}
		dst := make([]uint32, n/2)
		if c := Copy(dst, src); c != n/2 || !slices.Equal(dst, src[:n/2]) {
			t.Fatalf("n=%d: copied %d into a shorter slice, or wrongly", n, c)
		}
	}
	if Clone([]int(nil)) != nil {
		t.Error("a nil slice's clone is not nil")
	}
	// Elements holding pointers are copied as they are.
	rows := [][]float32{{1}, {2, 3}, nil}
	if got := Clone(rows); len(got) != 3 || &got[1][0] != &rows[1][0] || got[2] != nil {
		t.Errorf("slice headers not copied as they are: %v", got)
	}
}

// TestChecksum checks the piecewise CRC-32C against the whole one, across
// piece boundaries.
func TestChecksum(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	for _, n := range []int{0, 1, Piece - 1, Piece, Piece + 1, 2*Piece + 12345} {
		b := bytes.Repeat([]byte{1, 7, 42, 255, 0}, n/5+1)[:n]
		if got, want := Checksum(b, tab), crc32.Checksum(b, tab); got != want {
			t.Errorf("n=%d: %08x, want %08x", n, got, want)
		}
		if got, want := Update(0xdeadbeef, tab, b), crc32.Update(0xdeadbeef, tab, b); got != want {
			t.Errorf("n=%d: update %08x, want %08x", n, got, want)
		}
	}
}
