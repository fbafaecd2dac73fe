package redis

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/eval"
	"github.com/fonte-rag/fonte/retrieve"
)

// sciFact is BEIR SciFact, beside the repository.
const sciFact = "../../shared/data/scifact"

// BenchmarkSciFactLexical loads SciFact's 5,183 abstracts into a fresh
// collection on the single node, as engine.IndexDocuments does with whole
// set (one chunk "<doc>#0" per abstract, terms from fonte's English
// analysis of the enriched text; the vectors are arbitrary unit vectors,
// only the lexical leg is measured), and runs the 300 test queries once
// through three ways of ranking the same terms: the store's lexical leg
// (fonte's BM25 over the postings), the engine's SCORER BM25 on one OR
// query over the TEXT field, and one SCORER BM25 query per term (top
// 1,000 each) with the scores summed in Go. It reports nDCG@10 and
// recall@100 over documents and the mean time per query.
//
//	go test ./redis -run '^$' -bench SciFact -benchtime 1x -v
func BenchmarkSciFactLexical(b *testing.B) {
	if singleURL == "" {
		b.Fatal("no single-node server")
	}
	ctx := context.Background()
	data, err := eval.LoadBEIR(sciFact, "test")
	if err != nil {
		b.Fatal(err)
	}
	an := retrieve.DefaultAnalyzers()
	const dim = 8
	rng := rand.New(rand.NewPCG(1, 2))
	recs := make([]fonte.Record, len(data.Corpus))
	for i, d := range data.Corpus {
		sum := sha256.Sum256([]byte(d.Title + "\x00" + d.Text))
		d.SHA256 = hex.EncodeToString(sum[:])
		d.Source = d.ID
		c := fonte.Chunk{ID: d.ID + "#0", DocID: d.ID, Title: d.Title, Text: d.Text, Start: 0, End: len(d.Text)}
		v := randVec(rng, dim)
		n := float32(norm(v))
		for j := range v {
			v[j] /= n
		}
		recs[i] = fonte.Record{Doc: d, Chunks: []fonte.Chunk{c}, Vectors: [][]float32{v}, Terms: [][]string{an.Terms(c, d.Language)}}
	}
	queries := make([][]string, len(data.Queries))
	for i, q := range data.Queries {
		queries[i] = an.ByLang["en"].Analyze(q.Text)
	}

	settings := testSettings
	settings.Analyzer = an.Name()
	// The helpers take a *testing.T; a benchmark opens and writes itself.
	coll := fmt.Sprintf("BenchmarkSciFactLexical-%d-%d", time.Now().UnixNano()%1e6, collSeq.Add(1))
	s, err := Open(ctx, withParams(singleURL, "collection="+coll), fonte.StoreOptions{Settings: settings})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	for lo := 0; lo < len(recs); lo += 500 {
		err := s.Update(ctx, func(tx fonte.StoreTx) error {
			for _, r := range recs[lo:min(lo+500, len(recs))] {
				if err := tx.Put(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatalf("Update: %v", err)
		}
	}
	st, err := s.load(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.waitIndexed(ctx, st.index); err != nil {
		b.Fatal(err)
	}
	b.Logf("loaded %d chunks in %v", st.chunks, time.Since(start).Round(time.Millisecond))
	if info, err := s.rdb.Info(ctx, "modules").Result(); err == nil {
		for _, line := range strings.Split(info, "\n") {
			if strings.Contains(line, "name=search") {
				b.Logf("server: %s", strings.TrimSpace(line))
			}
		}
	}

	// docOf names the document of a chunk key an FT.SEARCH returned.
	docOf := func(key string) (string, error) {
		ver, _, ok := s.k.parseDataKey(key)
		id, live := st.byVer[ver]
		if !ok || !live {
			return "", fmt.Errorf("FT.SEARCH returned %q, not a live chunk", key)
		}
		return id, nil
	}
	// search runs FT.SEARCH NOCONTENT WITHSCORES on the TEXT field and
	// returns the documents with the engine's scores, in its order.
	search := func(expr string, limit int) ([]string, []float64, error) {
		raw, err := s.rdb.Do(ctx, "FT.SEARCH", st.index, "@"+fTerms+":("+expr+")", "NOCONTENT", "WITHSCORES",
			"SCORER", "BM25", "LIMIT", 0, limit, "DIALECT", 2).Slice()
		if err != nil {
			return nil, nil, err
		}
		var docs []string
		var scores []float64
		for i := 1; i+1 < len(raw); i += 2 {
			key, _ := raw[i].(string)
			id, err := docOf(key)
			if err != nil {
				return nil, nil, err
			}
			sc, err := strconv.ParseFloat(fmt.Sprint(raw[i+1]), 64)
			if err != nil {
				return nil, nil, fmt.Errorf("score of %s: %w", key, err)
			}
			docs = append(docs, id)
			scores = append(scores, sc)
		}
		return docs, scores, nil
	}

	legs := []struct {
		name, what string
		run        func(q []string) ([]string, error)
	}{
		{"store_leg", "fonte's BM25 over the postings (this package)", func(q []string) ([]string, error) {
			res, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: 100})
			out := make([]string, len(res))
			for i, r := range res {
				out[i] = r.Chunk.DocID
			}
			return out, err
		}},
		{"engine_or_bm25", "one OR query, SCORER BM25", func(q []string) ([]string, error) {
			esc := make([]string, len(q))
			for i, t := range q {
				esc[i] = escapeTag(t)
			}
			docs, _, err := search(strings.Join(esc, "|"), 100)
			return docs, err
		}},
		{"engine_per_term_sum", "one query per term, SCORER BM25, summed", func(q []string) ([]string, error) {
			total := map[string]float64{}
			for _, t := range q {
				docs, scores, err := search(escapeTag(t), 1000)
				if err != nil {
					return nil, err
				}
				for i, d := range docs {
					total[d] += scores[i]
				}
			}
			out := make([]string, 0, len(total))
			for d, sc := range total {
				if sc > 0 {
					out = append(out, d)
				}
			}
			slices.SortFunc(out, func(x, y string) int {
				if c := cmp.Compare(total[y], total[x]); c != 0 {
					return c
				}
				return cmp.Compare(x, y)
			})
			return out[:min(100, len(out))], nil
		}},
	}
	var table strings.Builder
	table.WriteString("\n| how the leg ranks | nDCG@10 | recall@100 | ms/query |\n|---|---|---|---|\n")
	for _, leg := range legs {
		b.Run(leg.name, func(b *testing.B) {
			run := eval.Run{}
			start := time.Now()
			for i, q := range queries {
				r, err := leg.run(q)
				if err != nil {
					b.Fatalf("query %s: %v", data.Queries[i].ID, err)
				}
				run[data.Queries[i].ID] = r
			}
			ms := float64(time.Since(start).Microseconds()) / 1000 / float64(len(queries))
			r := eval.ScoreRun(data.Qrels, run)
			if r.Queries != len(queries) || math.IsNaN(r.NDCG10) {
				b.Fatalf("%d queries scored of %d", r.Queries, len(queries))
			}
			b.ReportMetric(r.NDCG10, "nDCG@10")
			b.ReportMetric(r.Recall100, "recall@100")
			b.ReportMetric(ms, "ms/query")
			fmt.Fprintf(&table, "| %s | %.3f | %.3f | %.1f |\n", leg.what, r.NDCG10, r.Recall100, ms)
		})
	}
	b.Log(table.String())
}
