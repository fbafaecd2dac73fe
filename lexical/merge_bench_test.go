package lexical

import (
	"bytes"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/analysis"
)

// BenchmarkInPlaceMerge compares the two ways of writing the form of a
// corpus after a write that changed 1% of it (0.5% of the chunks deleted,
// 0.5% replaced, 1% added, and a tenth of the survivors moved behind the
// rest as a store's rewritten segments are): analysing every chunk
// (full), and reusing the previous form, opened in place, for the chunks
// that did not change (merge). Both write the same bytes; the metrics are
// measureBuild's (cpu-s/op is the one to compare on a busy machine).
//
//	go test -run XXX -bench InPlaceMerge -benchtime 3x ./lexical/
func BenchmarkInPlaceMerge(b *testing.B) {
	an := analysis.English()
	const n = 20000
	texts := synthTexts(n + n/50)
	old := synthModel(b, texts[:n], an)
	// The new corpus: kept chunks in order, then moved survivors and the
	// new texts (replacements and additions) mixed.
	var kept, moved []mergeDoc
	fresh := n
	for d := range n {
		switch {
		case d%200 == 0: // deleted
		case d%200 == 100: // replaced
			moved = append(moved, mergeDoc{old: -1, tokens: []string{texts[fresh]}})
			fresh++
		case d%10 == 3 && d > n/2:
			moved = append(moved, mergeDoc{old: d})
		default:
			kept = append(kept, mergeDoc{old: d})
		}
	}
	for ; fresh < len(texts); fresh++ {
		moved = append(moved, mergeDoc{old: -1, tokens: []string{texts[fresh]}})
	}
	mixed := make([]mergeDoc, 0, len(moved))
	for i := range (len(moved) + 1) / 2 { // the two halves interleaved
		mixed = append(mixed, moved[i])
		if j := i + (len(moved)+1)/2; j < len(moved) {
			mixed = append(mixed, moved[j])
		}
	}
	docs := append(kept, mixed...)
	tokensOf := func(i int) []string {
		if d := docs[i]; d.old >= 0 {
			return an.Analyze(texts[d.old])
		}
		return an.Analyze(docs[i].tokens[0])
	}
	want, err := formOf(len(docs), tokensOf)
	if err != nil {
		b.Fatal(err)
	}
	opts := InPlaceBuilderOptions{BM25: sciFactParams, Budget: 16 << 20}
	b.Run(fmt.Sprintf("chunks=%d/full", n), func(b *testing.B) {
		measureBuild(b, func(f *os.File) (int, error) {
			opts.Dir = b.TempDir()
			return buildBatched(len(docs), tokensOf, f, opts)
		})
	})
	b.Run(fmt.Sprintf("chunks=%d/merge", n), func(b *testing.B) {
		var got []byte
		measureBuild(b, func(f *os.File) (int, error) {
			opts.Dir = b.TempDir()
			bld := NewInPlaceBuilder(opts)
			defer bld.Close()
			if err := bld.Reuse(old); err != nil {
				return 0, err
			}
			if err := bld.AddBatchedReusing(len(docs), 1024, func(i int) int { return docs[i].old }, tokensOf); err != nil {
				return 0, err
			}
			var buf bytes.Buffer
			start := time.Now()
			if _, err := bld.Finish(&buf); err != nil {
				return 0, err
			}
			finishTime.Store(int64(time.Since(start)))
			got = buf.Bytes()
			_, err := f.Write(got)
			return bld.Runs(), err
		})
		if !bytes.Equal(got, want) {
			b.Fatal("the merged form differs from the full build's")
		}
	})
}

// synthModel is the model of texts, analysed by an, opened in place.
func synthModel(b *testing.B, texts []string, an analysis.Analyzer) *BM25 {
	form, err := formOf(len(texts), func(d int) []string { return an.Analyze(texts[d]) })
	if err != nil {
		b.Fatal(err)
	}
	m, err := OpenBM25InPlace(alignedCopy(form, 0), an)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// formOf is the form of n documents built from their tokens.
func formOf(n int, tokensOf func(int) []string) ([]byte, error) {
	bld := NewInPlaceBuilder(InPlaceBuilderOptions{BM25: sciFactParams, Dir: os.TempDir()})
	defer bld.Close()
	if err := bld.AddBatched(n, 1024, tokensOf); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	_, err := bld.Finish(&buf)
	return buf.Bytes(), err
}
