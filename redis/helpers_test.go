package redis

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/fonte-rag/fonte"
)

// backends runs fn once per server kind, in parallel subtests of a
// test that runs in parallel with the others (each has its collections).
func backends(t *testing.T, fn func(t *testing.T, url string)) {
	t.Helper()
	t.Parallel()
	for _, b := range []struct{ name, url string }{{"single", singleURL}, {"cluster", clusterURL}} {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			fn(t, b.url)
		})
	}
}

var collSeq atomic.Int64

// newCollection returns a collection name no other test uses.
func newCollection(t *testing.T) string {
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	if len(name) > 40 {
		name = name[len(name)-40:]
	}
	return fmt.Sprintf("%s-%d-%d", strings.Trim(name, "-_"), time.Now().UnixNano()%1e6, collSeq.Add(1))
}

// withParams appends query parameters to a store URL.
func withParams(url string, params ...string) string {
	for _, p := range params {
		if strings.Contains(url, "?") {
			url += "&" + p
		} else {
			url += "?" + p
		}
	}
	return url
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open opens coll on url and closes it at the end of the test.
func open(t *testing.T, url, coll string, o fonte.StoreOptions, params ...string) *Store {
	t.Helper()
	s, err := Open(ctxT(t), withParams(url, append([]string{"collection=" + coll}, params...)...), o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var testSettings = fonte.IndexSettings{Analyzer: "test-analyzer/1", Chunker: "test-chunker/1", Embedder: "test-embedder/8", Dim: 8}

// vocabulary the generated corpora draw their terms from, Zipf-like.
var vocabulary = func() []string {
	var v []string
	for i := range 60 {
		v = append(v, fmt.Sprintf("w%02d", i))
	}
	return v
}()

// genDoc makes a document with n chunks, deterministic in seed.
func genDoc(id string, n, dim int, seed uint64, tags ...string) fonte.Record {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := fonte.Record{
		Doc: fonte.Document{ID: id, Title: "Title of " + id, Source: "src/" + id, Language: "en",
			SHA256: fmt.Sprintf("%064x", seed), Updated: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Tags: tags},
		Meta: map[string]string{"format": "test"},
	}
	var text strings.Builder
	for i := range n {
		nt := 3 + rng.IntN(12)
		terms := make([]string, nt)
		for j := range terms {
			// Zipf-ish: low ranks far more often.
			terms[j] = vocabulary[int(float64(len(vocabulary))*math.Pow(rng.Float64(), 2.5))]
		}
		body := strings.Join(terms, " ")
		start := text.Len()
		text.WriteString(body)
		text.WriteString("\n")
		vec := make([]float32, dim)
		for j := range vec {
			vec[j] = float32(rng.NormFloat64())
		}
		h := sha256.Sum256([]byte(body))
		r.Chunks = append(r.Chunks, fonte.Chunk{ID: fmt.Sprintf("%s#%d", id, 2*i+1), DocID: id, Title: r.Doc.Title,
			Headings: []string{"H1", fmt.Sprintf("H2 %d", i)}, Text: body, Start: start, End: start + len(body), Page: i % 3, Position: 2*i + 1})
		r.Vectors = append(r.Vectors, vec)
		r.Terms = append(r.Terms, terms)
		r.TextHashes = append(r.TextHashes, hex.EncodeToString(h[:]))
	}
	r.Doc.Text = text.String()
	return r
}

// put commits records in one Update.
func put(t *testing.T, s *Store, recs ...fonte.Record) {
	t.Helper()
	err := s.Update(ctxT(t), func(tx fonte.StoreTx) error {
		for _, r := range recs {
			if err := tx.Put(ctxT(t), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// corpus is the test's own view of what a store should hold.
type corpus map[string]fonte.Record

func (c corpus) add(rs ...fonte.Record) {
	for _, r := range rs {
		c[r.Doc.ID] = r
	}
}

type refChunk struct {
	doc   string
	pos   int
	tags  []string
	terms []string
	vec   []float32
}

func (c corpus) chunks() []refChunk {
	var out []refChunk
	for _, r := range c {
		for i, ch := range r.Chunks {
			out = append(out, refChunk{r.Doc.ID, ch.Position, r.Doc.Tags, r.Terms[i], r.Vectors[i]})
		}
	}
	return out
}

type refHit struct {
	doc   string
	pos   int
	score float64
}

func sortHits(h []refHit) {
	slices.SortFunc(h, func(a, b refHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.doc, b.doc); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
}

// bm25 is an independent Okapi BM25 over the corpus's Terms, as
// fonte.LexicalQuery defines it.
func (c corpus) bm25(terms []string, k int, f fonte.Filter) []refHit {
	chunks := c.chunks()
	n := float64(len(chunks))
	total := 0
	df := map[string]int{}
	for _, ch := range chunks {
		total += len(ch.terms)
		seen := map[string]bool{}
		for _, t := range ch.terms {
			if !seen[t] {
				df[t]++
				seen[t] = true
			}
		}
	}
	avg := float64(total) / n
	var out []refHit
	for _, ch := range chunks {
		if !f.Accepts(ch.doc, ch.tags) {
			continue
		}
		s := 0.0
		for _, q := range terms {
			tf := 0
			for _, t := range ch.terms {
				if t == q {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[q])+0.5)/(float64(df[q])+0.5))
			fq := float64(tf)
			s += idf * fq * (fonte.BM25K1 + 1) / (fq + fonte.BM25K1*(1-fonte.BM25B+fonte.BM25B*float64(len(ch.terms))/avg))
		}
		if s > 0 {
			out = append(out, refHit{ch.doc, ch.pos, s})
		}
	}
	sortHits(out)
	return out[:min(k, len(out))]
}

// knn is brute-force cosine over the corpus.
func (c corpus) knn(q []float32, k int, f fonte.Filter) []refHit {
	var out []refHit
	qn := norm(q)
	for _, ch := range c.chunks() {
		if f.Accepts(ch.doc, ch.tags) {
			out = append(out, refHit{ch.doc, ch.pos, cosine(q, qn, ch.vec)})
		}
	}
	sortHits(out)
	return out[:min(k, len(out))]
}

func hitsOf(res []fonte.ScoredChunk) []refHit {
	out := make([]refHit, len(res))
	for i, r := range res {
		out[i] = refHit{r.Chunk.DocID, r.Chunk.Position, r.Score}
	}
	return out
}

// sameHits compares ranked lists: same chunks in the same order, scores
// within tol.
func sameHits(t *testing.T, what string, got, want []refHit, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d hits, want %d\n got %v\nwant %v", what, len(got), len(want), got, want)
	}
	for i := range got {
		if got[i].doc != want[i].doc || got[i].pos != want[i].pos || math.Abs(got[i].score-want[i].score) > tol {
			t.Fatalf("%s: hit %d is %v, want %v\n got %v\nwant %v", what, i, got[i], want[i], got, want)
		}
	}
}

func randVec(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// collectionKeys lists every key of the collection on every master, with
// the postings fields of the term hashes, for tests that prove what is
// gone.
func collectionKeys(t *testing.T, s *Store) []string {
	t.Helper()
	var keys []string
	for _, pattern := range []string{s.k.data + "*", s.k.slot + "*"} {
		if err := s.scan(ctxT(t), pattern, func(key string) { keys = append(keys, key) }); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(keys)
	return keys
}

// postingFields returns every field of every postings hash.
func postingFields(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	for _, key := range collectionKeys(t, s) {
		if !strings.HasPrefix(key, s.k.data+"t:") {
			continue
		}
		fields, err := s.rdb.HKeys(ctxT(t), key).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fields {
			out = append(out, strings.TrimPrefix(key, s.k.data+"t:")+"/"+f)
		}
	}
	return out
}

func mustErrIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v does not wrap %v", err, target)
	}
}

var _ = goredis.Nil
