package judge

import (
	"strings"
	"testing"
)

// TestSynonymGroupsApart checks that no word stands in two synonym groups
// (cancellato was both cancelled and deleted) and that no group merges
// the two sides of a pair of opposites.
func TestSynonymGroupsApart(t *testing.T) {
	seen := map[string]string{}
	for _, g := range synonymGroups {
		head := strings.Fields(g)[0]
		for _, w := range strings.Fields(g) {
			s := rawStem(fold(w))
			if h, ok := seen[s]; ok && h != head {
				t.Errorf("%s (%s) in %s and %s", w, s, h, head)
			}
			seen[s] = head
		}
	}
	for _, pair := range opposites {
		for side := 0; side < 2; side++ {
			for _, a := range pair[side] {
				for _, b := range pair[1-side] {
					if stem(a) == stem(b) {
						t.Errorf("opposites %s %s share %s", a, b, stem(a))
					}
				}
			}
		}
	}
}
