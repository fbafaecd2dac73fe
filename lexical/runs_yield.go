package lexical

import "github.com/fonte-rag/fonte/internal/yield"

// analysedPerYield is how many documents a build's analysis worker
// analyses between offers to give way to searches (internal/yield): tens
// of microseconds each, so a search waits a millisecond or less.
const analysedPerYield = 32

// postingsPerYield is how many postings the passes over a build's term
// lists go through between offers to give way to searches: each is a few
// nanoseconds of merging, checking or encoding.
const postingsPerYield = 1 << 16

// yielding is lists with an offer to give way to searches every
// postingsPerYield postings (and at each term of more): the passes over
// a million chunks' postings take seconds each, beside live readers.
func yielding(lists termLists) termLists {
	return func(fn func(t int, term []byte, docs, freqs []uint32) error) error {
		y := yield.NewEvery(postingsPerYield)
		return lists(func(t int, term []byte, docs, freqs []uint32) error {
			y.Step(len(docs) + 1)
			return fn(t, term, docs, freqs)
		})
	}
}
