package fusion_test

import (
	"fmt"

	"github.com/fonte-rag/fonte/fusion"
)

// Seed 001's second query: word search finds only SOP-023, the vector
// search puts the right procedure, SOP-007, first. Fusion keeps both.
func ExampleRRF() {
	bm25 := []string{"SOP-023"}
	vect := []string{"SOP-007", "SOP-023"}
	for _, f := range fusion.RRF([][]string{bm25, vect}, fusion.Options{}) {
		fmt.Printf("%s %.5f ranks %v\n", f.ID, f.Score, f.Ranks)
	}
	// Output:
	// SOP-023 0.03252 ranks [1 2]
	// SOP-007 0.01639 ranks [0 1]
}
