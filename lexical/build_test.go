package lexical

import (
	"reflect"
	"testing"

	"github.com/fonte-rag/fonte/analysis"
)

func TestNewIndexParallel(t *testing.T) {
	docs, _ := zipfCorpus(700, 11)
	docs = append(docs, "", "a", "", "the of")
	corpora := map[string][]string{
		"synthetic": docs,
		"empty":     nil,
		"one":       {"refund refund policy"},
		"blank":     {"", "", ""},
		"three":     {"b a b", "", "c a A B C d"},
	}
	an := analysis.Sklearn()
	for name, docs := range corpora {
		tokensOf := func(d int) []string { return an.Analyze(docs[d]) }
		want := NewIndexTokens(len(docs), tokensOf, an)
		for _, workers := range []int{-1, 0, 1, 2, 3, 7} {
			if got := NewIndexParallel(len(docs), tokensOf, an, workers); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %d workers: index differs from NewIndexTokens's", name, workers)
			}
		}
	}
}
