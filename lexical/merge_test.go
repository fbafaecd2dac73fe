package lexical

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

// mergeDoc is a document of a corpus a random edit made: its tokens, and
// its number in the previous corpus when the edit kept it (-1 otherwise).
type mergeDoc struct {
	tokens []string
	old    int
}

// editCorpus applies a random edit to docs: some documents are deleted,
// some replaced by new tokens, some added, and the survivors renumbered
// the way a store's write renumbers chunks (kept pieces in order, the
// rest moved behind them, sorted among the added), or shuffled outright.
func editCorpus(rng *rand.Rand, docs [][]string) []mergeDoc {
	var kept, moved []mergeDoc
	pieces := 1 + rng.IntN(4)
	for i, d := range docs {
		switch r := rng.IntN(20); {
		case r < 2: // deleted
		case r < 4: // replaced: new tokens, moved
			moved = append(moved, mergeDoc{tokens: randomTokens(rng, 1, 0)[0], old: -1})
		case i*pieces/max(1, len(docs))%2 == 1 && rng.IntN(3) == 0:
			// A survivor of a rewritten piece: moved behind the kept ones.
			moved = append(moved, mergeDoc{tokens: d, old: i})
		default:
			kept = append(kept, mergeDoc{tokens: d, old: i})
		}
	}
	for _, d := range randomTokens(rng, rng.IntN(30), 0) {
		moved = append(moved, mergeDoc{tokens: d, old: -1})
	}
	// The moved documents are mixed with the added ones, as a rewritten
	// segment sorted by ID mixes survivors of several others with new ones.
	rng.Shuffle(len(moved), func(i, j int) {
		if moved[i].old < 0 || moved[j].old < 0 || (moved[i].old < moved[j].old) == (i < j) {
			moved[i], moved[j] = moved[j], moved[i]
		}
	})
	out := append(kept, moved...)
	if rng.IntN(6) == 0 {
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	}
	return out
}

// mergeForm builds the form of docs reusing old (a model of the previous
// corpus), with the given budget and batch.
func mergeForm(t *testing.T, old *BM25, docs []mergeDoc, budget int64, batch int) []byte {
	t.Helper()
	b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Budget: budget, Dir: t.TempDir(), Workers: 3})
	defer b.Close()
	if err := b.Reuse(old); err != nil {
		t.Fatal(err)
	}
	err := b.AddBatchedReusing(len(docs), batch, func(i int) int { return docs[i].old }, func(i int) []string {
		if docs[i].old >= 0 {
			panic(fmt.Sprintf("document %d, reused, analysed", i))
		}
		return docs[i].tokens
	})
	if err != nil {
		t.Fatal(err)
	}
	reused := 0
	for _, d := range docs {
		if d.old >= 0 {
			reused++
		}
	}
	if b.Reused() != reused {
		t.Fatalf("%d documents reused, want %d", b.Reused(), reused)
	}
	var out bytes.Buffer
	if _, err := b.Finish(&out); err != nil {
		t.Fatalf("Finish merging: %v", err)
	}
	return out.Bytes()
}

// TestInPlaceMergeRandomEdits: a chain of random edits (deletions,
// replacements, additions, renumbering), each built by merging the
// previous form's postings with the added documents' alone, gives at
// every step the bytes a build from every document's tokens gives, and
// the same scores bit for bit; the previous model is the merged form
// opened in place, or a model in memory.
func TestInPlaceMergeRandomEdits(t *testing.T) {
	an := analysis.Sklearn()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 77))
		docs := randomTokens(rng, 40+rng.IntN(200), 0)
		form, _ := buildInPlace(t, docs, DefaultBM25Options(), 1<<40)
		for step := range 12 {
			var old *BM25
			if rng.IntN(4) == 0 {
				old = NewBM25Index(NewIndexTokens(len(docs), func(d int) []string { return docs[d] }, an), DefaultBM25Options())
			} else {
				var err error
				if old, err = OpenBM25InPlace(alignedCopy(form, 0), an); err != nil {
					t.Fatal(err)
				}
			}
			edited := editCorpus(rng, docs)
			if step == 7 { // everything deleted, then rebuilt from nothing
				edited = nil
			}
			next := make([][]string, len(edited))
			for i, d := range edited {
				next[i] = d.tokens
			}
			want, _ := buildInPlace(t, next, DefaultBM25Options(), 1<<40)
			budget := []int64{1 << 40, 300, 1}[rng.IntN(3)]
			got := mergeForm(t, old, edited, budget, 1+rng.IntN(50))
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d (%d documents, %d before): merged form of %d bytes differs from the full build's %d from byte %d",
					seed, step, len(next), len(docs), len(got), len(want), firstDiff(got, want))
			}
			m := NewBM25Index(NewIndexTokens(len(next), func(d int) []string { return next[d] }, an), DefaultBM25Options())
			flat, err := OpenBM25InPlace(alignedCopy(got, 0), an)
			if err != nil {
				t.Fatal(err)
			}
			words := slices.Compact(slices.Sorted(slices.Values(slices.Concat(next...))))
			for len(words) <= 30 { // randomQuery draws from 30 common words and more
				words = append(words, fmt.Sprint("absent", len(words)))
			}
			rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
			if len(next) > 0 {
				compareModels(t, m, flat, randomQueries(rng, words, 8), []int{1, 10})
			}
			docs, form = next, got
		}
	}
}

// TestInPlaceMergeErrors: a previous form whose bytes changed is refused
// (checksum) before anything is built, and misuse is reported.
func TestInPlaceMergeErrors(t *testing.T) {
	an := analysis.Sklearn()
	docs := randomTokens(rand.New(rand.NewPCG(3, 4)), 50, 0)
	form, _ := buildInPlace(t, docs, DefaultBM25Options(), 1<<40)
	data := alignedCopy(form, 0)
	old, err := OpenBM25InPlace(data, an)
	if err != nil {
		t.Fatal(err)
	}
	newBuilder := func() *InPlaceBuilder {
		b := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: DefaultBM25Options(), Dir: t.TempDir()})
		t.Cleanup(func() { b.Close() })
		return b
	}
	// A frequency flipped in place (the last posting's, before the
	// trailer and any padding): the checksum catches it.
	bad := slices.Clone(data)
	bad[len(bad)-5] ^= 0x40
	damaged, err := OpenBM25InPlace(alignedCopy(bad, 0), an)
	if err != nil {
		t.Fatal(err)
	}
	if err := newBuilder().Reuse(damaged); !errors.Is(err, ErrFormat) {
		t.Fatalf("reusing a damaged form: %v, want ErrFormat", err)
	}
	b := newBuilder()
	if err := b.AddReused(0); err == nil {
		t.Fatal("AddReused without Reuse succeeded")
	}
	b = newBuilder()
	if err := b.Add([]string{"x"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Reuse(old); err == nil {
		t.Fatal("Reuse after Add succeeded")
	}
	b = newBuilder()
	if err := b.Reuse(old); err != nil {
		t.Fatal(err)
	}
	if err := b.AddReused(3); err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{3, -1, len(docs)} {
		if err := b.AddReused(d); err == nil {
			t.Fatalf("AddReused(%d) succeeded", d)
		}
	}
}
