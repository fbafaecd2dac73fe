package seeds

import (
	"github.com/fonte-rag/fonte/analysis"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/retrieve"
)

// AnalysisRow is one retriever's ranks of the gold passages on seed 000.
type AnalysisRow struct {
	Retriever string `json:"retriever"`
	RankReport
}

// Seed000Analysis compares, on seed 000's Italian rulebook, the seed's
// TF-IDF (scikit-learn's defaults: no stop words, no stems) with fonte's
// default Italian analysis (Snowball stop words and stems) under TF-IDF and
// under BM25 with fonte's parameters: the measurement behind the Italian
// defaults.
func Seed000Analysis(s Seed000) []AnalysisRow {
	texts := make([]string, len(s.Passages))
	for i, p := range s.Passages {
		texts[i] = p.Text
	}
	rows := []AnalysisRow{}
	add := func(name string, scores func(q string) []float64) {
		var ranks []int
		for _, q := range s.Questions {
			ranks = append(ranks, rankOf(scores(q.Question), q.GoldPassage))
		}
		rows = append(rows, AnalysisRow{Retriever: name, RankReport: rankReport(ranks)})
	}
	seed := lexical.NewTFIDF(texts, analysis.Sklearn(), lexical.TFIDFOptions{})
	add("TF-IDF, scikit-learn defaults (the seed)", seed.Scores)
	it := lexical.NewIndex(texts, analysis.Italian())
	tf := lexical.NewTFIDFIndex(it, lexical.TFIDFOptions{})
	add("TF-IDF, fonte's Italian analysis", tf.Scores)
	bm := lexical.NewBM25Index(it, retrieve.BM25Params)
	add("BM25, fonte's Italian analysis", bm.Scores)
	return rows
}
