// Package answer holds the stages between retrieval and a checked answer:
// the score floor that decides whether to answer at all, fitting chunks into
// a context budget, the order they are shown in, prompt assembly, the
// offline extractive answerer of the seeds, and the grounding checks run on
// whatever comes back. Everything here is a pure function over fonte's
// types, so it runs the same on every store.
package answer

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
)

// Abstain reports whether the system should decline to answer: there is no
// hit, or the best score is below floor. A floor is a measured trade-off
// (see eval.FloorTable), not a constant.
func Abstain(hits []fonte.Hit, floor float64) bool {
	if len(hits) == 0 {
		return true
	}
	best := hits[0].Score
	for _, h := range hits[1:] {
		best = max(best, h.Score)
	}
	return best < floor
}

// Chunks returns the chunks of hits, in order.
func Chunks(hits []fonte.Hit) []fonte.Chunk {
	out := make([]fonte.Chunk, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk
	}
	return out
}

// Chars is the default size of a chunk for budgets: the number of
// characters (code points) of its text, as Python's len counts them in the
// seeds.
func Chars(c fonte.Chunk) int { return utf8.RuneCountInString(c.Text) }

// FitInOrder is seed 002's fit: walk hits in the order given and keep each
// one whose size still fits, used+size <= budget. A chunk that does not fit
// is skipped and the walk goes on, so a smaller chunk further down can still
// use the room. A nil size counts characters (Chars).
//
// The order given is the selection priority. Pass hits in score order
// (Fit does) unless measuring what a different order loses.
func FitInOrder(hits []fonte.Hit, budget int, size func(fonte.Chunk) int) []fonte.Hit {
	return fitInOrder(hits, budget, size, nil)
}

// fitInOrder is FitInOrder, telling note (when set) about every hit.
func fitInOrder(hits []fonte.Hit, budget int, size func(fonte.Chunk) int, note fitNote) []fonte.Hit {
	if size == nil {
		size = Chars
	}
	var kept []fonte.Hit
	used := 0
	for _, h := range hits {
		n := size(h.Chunk)
		fits := used+n <= budget
		if note != nil {
			note(h, n, used, fits)
		}
		if fits {
			kept = append(kept, h)
			used += n
		}
	}
	return kept
}

// Fit selects the hits that go into the context: the best by score first
// (ties by chunk ID), as many as fit the budget (see FitInOrder). Selection
// is only half of the decision; the kept hits come back best first, and a
// presentation Order such as DocumentOrder may reorder them afterwards
// without losing anything. Sorting before trimming is what loses evidence
// (seed 002: document order before trimming drops the best chunk for 3 of
// 13 questions).
func Fit(hits []fonte.Hit, budget int, size func(fonte.Chunk) int) []fonte.Hit {
	return FitInOrder(BestFirst(hits), budget, size)
}

// Order arranges hits for the reader. It returns a new slice and leaves its
// argument alone.
type Order func(hits []fonte.Hit) []fonte.Hit

// AsGiven keeps the order hits arrived in, typically the retriever's
// ranking.
func AsGiven(hits []fonte.Hit) []fonte.Hit { return slices.Clone(hits) }

// Reverse turns the order hits arrived in around.
func Reverse(hits []fonte.Hit) []fonte.Hit {
	out := slices.Clone(hits)
	slices.Reverse(out)
	return out
}

// BestFirst orders hits by score, highest first, ties by chunk ID so the
// result never depends on the input order.
func BestFirst(hits []fonte.Hit) []fonte.Hit {
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(a, b fonte.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	return out
}

// BestLast is BestFirst reversed: the best chunk sits right before the
// question, where models attend well.
func BestLast(hits []fonte.Hit) []fonte.Hit {
	out := BestFirst(hits)
	slices.Reverse(out)
	return out
}

// DocumentOrder orders hits as they stand in their documents: by DocID,
// then Position, then chunk ID. Neighbouring passages read in sequence.
func DocumentOrder(hits []fonte.Hit) []fonte.Hit {
	out := slices.Clone(hits)
	slices.SortStableFunc(out, func(a, b fonte.Hit) int {
		return cmp.Or(
			cmp.Compare(a.Chunk.DocID, b.Chunk.DocID),
			cmp.Compare(a.Chunk.Position, b.Chunk.Position),
			cmp.Compare(a.Chunk.ID, b.Chunk.ID),
		)
	})
	return out
}

// Strategy is one way of building a context: an order to trim in, then an
// order to present what was kept. Seed 002 compares four of them
// (SeedStrategies); the product's is DefaultStrategy.
type Strategy struct {
	Name    string
	Select  Order // the order FitInOrder walks; nil keeps the given order
	Present Order // the order of the kept hits in the prompt; nil keeps it
}

// Apply trims hits to the budget in Select order and returns the kept hits
// in Present order.
func (s Strategy) Apply(hits []fonte.Hit, budget int, size func(fonte.Chunk) int) []fonte.Hit {
	return s.apply(hits, budget, size, nil)
}

// apply is Apply, telling note (when set) about every hit FitInOrder
// walks.
func (s Strategy) apply(hits []fonte.Hit, budget int, size func(fonte.Chunk) int, note fitNote) []fonte.Hit {
	if s.Select != nil {
		hits = s.Select(hits)
	}
	kept := fitInOrder(hits, budget, size, note)
	if s.Present != nil {
		kept = s.Present(kept)
	}
	return kept
}

// DefaultStrategy is the product's strategy: select by score as Fit does,
// present best first.
func DefaultStrategy() Strategy {
	return Strategy{Name: "trim in score order, best chunk first", Select: BestFirst, Present: BestFirst}
}

// SeedStrategies returns seed 002's four context strategies, in the order
// of its table. "Score order" there is the retriever's ranking as given, so
// pass hits exactly as the retriever ranked them to reproduce the table.
func SeedStrategies() []Strategy {
	return []Strategy{
		{Name: "trim in score order, best chunk first", Select: AsGiven, Present: AsGiven},
		{Name: "trim in document order", Select: DocumentOrder, Present: AsGiven},
		{Name: "trim in score order, best chunk last", Select: AsGiven, Present: Reverse},
		{Name: "trim in score order, present in document order", Select: AsGiven, Present: DocumentOrder},
	}
}
