package vector

import (
	"slices"
	"testing"
)

// TestPreemptibleCopies checks the piecewise copies against the copies
// they stand in for, across piece boundaries and for a type wider than a
// byte, and that growing keeps room as slices.Grow does.
func TestPreemptibleCopies(t *testing.T) {
	for _, n := range []int{0, 1, copyPiece/4 - 1, copyPiece / 4, copyPiece/4 + 1, 3*copyPiece/4 + 7} {
		src := make([]uint32, n)
		for i := range src {
			src[i] = uint32(i*2654435761) ^ 0x9e3779b9
		}
		if got := clonePreemptible(src); !slices.Equal(got, src) || (n > 0 && &got[0] == &src[0]) {
			t.Fatalf("n=%d: clone differs from its source or shares it", n)
		}
		for _, more := range []int{0, 1, 5, n + 3} {
			g := growPreemptible(src, more)
			if !slices.Equal(g, src) || cap(g)-len(g) < more {
				t.Fatalf("n=%d, more=%d: grown to len %d cap %d, or its elements differ", n, more, len(g), cap(g))
			}
		}
		dst := make([]uint32, n/2)
		if c := copyPreemptible(dst, src); c != n/2 || !slices.Equal(dst, src[:n/2]) {
			t.Fatalf("n=%d: copied %d into a shorter slice, or wrongly", n, c)
		}
	}
	if clonePreemptible([]int(nil)) != nil {
		t.Error("a nil slice's clone is not nil")
	}
	// Elements holding pointers are copied as they are.
	rows := [][]float32{{1}, {2, 3}, nil}
	if got := clonePreemptible(rows); len(got) != 3 || &got[1][0] != &rows[1][0] || got[2] != nil {
		t.Errorf("slice headers not copied as they are: %v", got)
	}
}
