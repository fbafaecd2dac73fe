package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/lexical"
)

// trickyTerms are terms PostgreSQL's own parser would split or change.
var trickyTerms = []string{
	"sop-014", "tnf-alpha", "città", "perché", "über", "naïve", "2019", "1e5", "3.14", "a.b.c", "user@example.com",
	"http://x.y/z", "zz", "z", "t", "h", "", " ", "a b", "tab\there", "-", "--", "'", `"`, "&", "|", "!", ":*", "(", "\\",
	"日本", "Ωmega", "MiXeD", "x" + strings.Repeat("é", 400), strings.Repeat("long", 700),
}

func TestLexTokensOnePerTerm(t *testing.T) {
	ctx := context.Background()
	c := rawConn(t)
	seen := map[string]string{}
	for _, term := range append(slices.Clone(trickyTerms), "secretword", "tsecretword") {
		tok := lexToken(term)
		if prev, dup := seen[tok]; dup {
			t.Fatalf("terms %q and %q encode alike: %q", prev, term, tok)
		}
		seen[tok] = term
	}
	// Random byte strings never collide (the encoding is injective).
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = "az0-ézt\x00\xff"[r.IntN(10)]
		}
		tok := lexToken(string(b))
		if prev, dup := seen[tok]; dup && prev != string(b) {
			t.Fatalf("terms %q and %q encode alike: %q", prev, b, tok)
		}
		seen[tok] = string(b)
	}

	// PostgreSQL reads each encoded term as exactly one token, kept as it
	// is: the chunk's token count is len(terms) and its lexemes are the
	// encoded terms.
	terms := append(slices.Clone(trickyTerms), "sop-014", "sop-014", "città")
	var lexemes []string
	var positions int
	err := c.QueryRow(ctx, `SELECT array_agg(lexeme ORDER BY lexeme), sum(cardinality(positions))
FROM unnest(to_tsvector('simple'::regconfig, $1::text))`, lexText(terms)).Scan(&lexemes, &positions)
	if err != nil {
		t.Fatal(err)
	}
	if positions != len(terms) {
		t.Errorf("to_tsvector counts %d tokens for %d terms", positions, len(terms))
	}
	var want []string
	for _, term := range terms {
		want = append(want, lexToken(term))
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if !slices.Equal(lexemes, want) {
		t.Errorf("lexemes %q,\nwant %q", lexemes, want)
	}

	// The same holds in the store, per chunk, for the tsvector and for
	// pg_textsearch's document length.
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	rec := record("tricky.md", 4, "one", "two")
	rec.Terms = [][]string{terms, {"sop-014", "sop-014"}}
	put(t, s, rec)
	rows, err := c.Query(ctx, `SELECT nterms, (SELECT sum(cardinality(positions)) FROM unnest(to_tsvector('simple'::regconfig, lex)))
FROM `+quote(schemaName(collectionOf(t, u)))+`.chunks ORDER BY position`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; rows.Next(); i++ {
		var n, tokens int
		if err := rows.Scan(&n, &tokens); err != nil {
			t.Fatal(err)
		}
		if n != len(rec.Terms[i]) || tokens != n {
			t.Errorf("chunk %d: %d terms, nterms %d, %d tokens", i, len(rec.Terms[i]), n, tokens)
		}
	}
	for _, term := range trickyTerms {
		hits, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{term}, K: 3})
		if term == "sop-014" && len(hits) == 2 { // in both chunks
			hits = hits[1:]
		}
		if err != nil || len(hits) != 1 || hits[0].Chunk.Position != 0 {
			t.Errorf("searching %q: %+v, %v", term, hits, err)
		}
	}
	// "sop" alone is not a term of the chunk, though PostgreSQL's parser
	// would have made it one.
	if hits, _ := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"sop"}, K: 3}); len(hits) != 0 {
		t.Errorf("searching sop: %+v", hits)
	}
}

// vocabulary of the test corpus: Zipf-distributed words, some of them
// terms PostgreSQL's parser would split.
var vocabulary = func() []string {
	v := []string{"policy", "leave", "travel", "sop-014", "tnf-alpha", "città", "expense", "report", "manager", "approval",
		"remote", "office", "laptop", "security", "badge", "holiday", "sick", "parental", "training", "budget"}
	for i := range 60 {
		v = append(v, fmt.Sprintf("w%02d", i))
	}
	return v
}()

var prefixes = []string{"hr/", "it/", "eng/", "eng/docs/"}

// corpus makes n documents of one to four chunks with Zipf-distributed
// terms, tags and IDs under a few prefixes.
func corpus(seed uint64, n, dim int) []fonte.Record {
	r := rand.New(rand.NewPCG(seed, 99))
	zipf := rand.NewZipf(r, 1.2, 2, uint64(len(vocabulary)-1))
	var recs []fonte.Record
	for d := range n {
		id := fmt.Sprintf("%sdoc%03d.md", prefixes[r.IntN(len(prefixes))], d)
		var texts []string
		for range 1 + r.IntN(4) {
			var w []string
			for range 3 + r.IntN(140) {
				w = append(w, vocabulary[zipf.Uint64()])
			}
			texts = append(texts, strings.Join(w, " "))
		}
		rec := record(id, dim, texts...)
		switch r.IntN(3) {
		case 0:
			rec.Doc.Tags = []string{"public"}
		case 1:
			rec.Doc.Tags = []string{"public", "policy"}
		}
		recs = append(recs, rec)
	}
	return recs
}

// chunkRef names a chunk.
type chunkRef struct {
	doc string
	pos int
}

// referenceBM25 scores chunks for query terms with fonte's BM25 (k1 and b
// of fonte, idf ln(1+(N-df+0.5)/(df+0.5)), each query term occurrence
// counted) over the same Terms the store indexes: the answer the lexical
// leg should give. With quantize, a chunk's length is the one
// pg_textsearch's segments keep (see fieldnorm); N, df and the average
// length stay exact, as pg_textsearch keeps them.
type referenceBM25 struct {
	refs     []chunkRef
	tags     [][]string
	terms    [][]string
	tf       []map[string]int
	df       map[string]int
	avgLen   float64
	quantize bool
}

func newReferenceBM25(recs []fonte.Record) *referenceBM25 {
	ref := &referenceBM25{df: map[string]int{}}
	total := 0
	for _, r := range recs {
		for i, c := range r.Chunks {
			ref.refs = append(ref.refs, chunkRef{r.Doc.ID, c.Position})
			ref.tags = append(ref.tags, r.Doc.Tags)
			ref.terms = append(ref.terms, r.Terms[i])
			total += len(r.Terms[i])
			tf := map[string]int{}
			for _, t := range r.Terms[i] {
				if tf[t]++; tf[t] == 1 {
					ref.df[t]++
				}
			}
			ref.tf = append(ref.tf, tf)
		}
	}
	ref.avgLen = float64(total) / float64(len(ref.terms))
	return ref
}

// fieldnorm is the length pg_textsearch's segments keep for a document
// of n terms: one byte in Lucene's SmallFloat encoding (intToByte4, then
// byte4ToInt back), exact below 40 and rounded down to 4 significant bits
// of n-24 above, so at most about 6% short.
func fieldnorm(n int) int {
	const exact = 24
	if n < exact {
		return n
	}
	v := n - exact
	shift := max(bits.Len(uint(v))-4, 0)
	return exact + v>>shift<<shift
}

// scores returns every chunk's score.
func (ref *referenceBM25) scores(query []string) []float64 {
	const k1, b = fonte.BM25K1, fonte.BM25B
	n := float64(len(ref.terms))
	out := make([]float64, len(ref.terms))
	for i, terms := range ref.terms {
		length := len(terms)
		if ref.quantize {
			length = fieldnorm(length)
		}
		for _, q := range query {
			f := float64(ref.tf[i][q])
			if f == 0 {
				continue
			}
			df := float64(ref.df[q])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			out[i] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(length)/ref.avgLen))
		}
	}
	return out
}

// checkAgainstLexical checks the unquantized reference is fonte's own
// BM25: package lexical's scores over the same terms.
func (ref *referenceBM25) checkAgainstLexical(t *testing.T, queries [][]string) {
	t.Helper()
	ix := lexical.NewIndexTokens(len(ref.terms), func(d int) []string { return ref.terms[d] }, nil)
	model := lexical.NewBM25Index(ix, lexical.BM25Options{K1: fonte.BM25K1, B: fonte.BM25B})
	for _, q := range queries {
		want, got := model.ScoresTokens(q), ref.scores(q)
		for i := range want {
			if math.Abs(want[i]-got[i]) > 1e-9 {
				t.Fatalf("the reference scores chunk %v %.12f for %q, package lexical %.12f", ref.refs[i], got[i], q, want[i])
			}
		}
	}
}

type scoredRef struct {
	chunkRef
	score float64
}

// topK is the reference answer: chunks scoring above 0 that f accepts,
// best first, ties by document ID then position.
func (ref *referenceBM25) topK(terms []string, k int, f fonte.Filter) []scoredRef {
	scores := ref.scores(terms)
	var out []scoredRef
	for i, s := range scores {
		if s > 0 && f.Accepts(ref.refs[i].doc, ref.tags[i]) {
			out = append(out, scoredRef{ref.refs[i], s})
		}
	}
	slices.SortFunc(out, func(a, b scoredRef) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.doc, b.doc), cmp.Compare(a.pos, b.pos))
	})
	return out[:min(k, len(out))]
}

// scoreOf is the reference score of one chunk.
func (ref *referenceBM25) scoreOf(terms []string, c chunkRef) float64 {
	i := slices.Index(ref.refs, c)
	if i < 0 {
		return math.NaN()
	}
	return ref.scores(terms)[i]
}

// compareTopK checks a leg's answer against the reference: the same
// length, each score within tol (relative) of the reference's at that
// rank, and the same chunk unless the two reference scores tie within
// tol (float rounding may swap near-ties).
func compareTopK(t *testing.T, what string, got []fonte.ScoredChunk, want []scoredRef, ref *referenceBM25, terms []string, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d hits, want %d", what, len(got), len(want))
		return
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }
	for i, g := range got {
		w := want[i]
		if !near(g.Score, w.score) {
			t.Errorf("%s: rank %d score %.7f, want %.7f", what, i+1, g.Score, w.score)
		}
		c := chunkRef{g.Chunk.DocID, g.Chunk.Position}
		if c != w.chunkRef && !near(ref.scoreOf(terms, c), w.score) {
			t.Errorf("%s: rank %d is %v (reference score %.7f), want %v (%.7f)", what, i+1, c, ref.scoreOf(terms, c), w.chunkRef, w.score)
		}
	}
}

// queries are term lists over the vocabulary, with repeated and unknown
// terms.
func queries(seed uint64, n int) [][]string {
	r := rand.New(rand.NewPCG(seed, 7))
	var out [][]string
	for range n {
		var q []string
		for range 1 + r.IntN(4) {
			q = append(q, vocabulary[r.IntN(len(vocabulary))])
		}
		out = append(out, q)
	}
	return append(out, []string{"policy", "policy", "leave"}, []string{"nosuchterm"}, []string{"nosuchterm", "sop-014"}, []string{"città", "tnf-alpha"})
}

// TestLexicalMatchesBM25 compares the lexical leg with fonte's BM25 over
// the same terms: pg_textsearch finds the candidates and the store scores
// them again exactly, so the top-k is fonte's whether the chunks sit in
// pg_textsearch's memtable or its segments, and even when its statistics
// still count replaced chunks. Only float rounding separates the scores
// (the sums run in another order).
func TestLexicalMatchesBM25(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	recs := corpus(1, 80, 4)
	ref := newReferenceBM25(recs)
	ref.checkAgainstLexical(t, queries(3, 40))
	if longest := slices.MaxFunc(ref.terms, func(a, b []string) int { return len(a) - len(b) }); len(longest) < 100 {
		t.Fatalf("the corpus's longest chunk has %d terms; the test needs lengths that pg_textsearch rounds", len(longest))
	}
	const tol = 1e-9
	filters := []fonte.Filter{{}, {Prefixes: []string{"eng/"}}, {Tags: []string{"policy"}}, {Prefixes: []string{"hr/", "it/"}, Tags: []string{"public"}}}
	check := func(what string, queries [][]string, filters []fonte.Filter) {
		t.Helper()
		for qi, q := range queries {
			for fi, f := range filters {
				for _, k := range []int{3, 10} {
					got, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: k, Filter: f})
					if err != nil {
						t.Fatal(err)
					}
					compareTopK(t, fmt.Sprintf("%s, query %d %q filter %d k %d", what, qi, q, fi, k), got, ref.topK(q, k, f), ref, q, tol)
				}
			}
		}
	}
	// A small first commit stays in pg_textsearch's memtable.
	put(t, s, recs[:8]...)
	if n := memtableDocs(t, u); n != len(newReferenceBM25(recs[:8]).terms) {
		t.Fatalf("pg_textsearch's memtable holds %d chunks", n)
	}
	ref = newReferenceBM25(recs[:8])
	check("memtable", queries(3, 40), filters)
	// The rest spills chunks to segments.
	put(t, s, recs[8:]...)
	ref = newReferenceBM25(recs)
	check("memtable and segments", queries(3, 40), filters)

	// Replace a third of the documents and delete a few: pg_textsearch's
	// statistics count the old rows until Purge, the scores do not.
	r := rand.New(rand.NewPCG(5, 5))
	fresh := corpus(2, 80, 4)
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		for i := range recs {
			switch r.IntN(6) {
			case 0, 1:
				fresh[i].Doc.ID = recs[i].Doc.ID
				for j := range fresh[i].Chunks {
					fresh[i].Chunks[j].DocID = recs[i].Doc.ID
				}
				recs[i] = fresh[i]
				if err := tx.Put(ctx, recs[i]); err != nil {
					return err
				}
			case 2:
				if _, err := tx.Delete(ctx, recs[i].Doc.ID); err != nil {
					return err
				}
				recs[i].Doc.ID = ""
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	recs = slices.DeleteFunc(recs, func(r fonte.Record) bool { return r.Doc.ID == "" })
	ref = newReferenceBM25(recs)
	check("after changes", queries(4, 25), filters[:2])
	if err := s.Purge(ctx); err != nil {
		t.Fatal(err)
	}
	check("after Purge", queries(4, 25), filters[:2])
}

// TestPgTextsearchScores pins what pg_textsearch's own scores are, which
// is why the store scores its candidates again: the same formula (idf
// ln(1+(N-df+0.5)/(df+0.5)), k1 0.9 and b 0.4 from the index options, a
// repeated query term counted each time, unknown terms adding 0), but
//
//  1. in float4, about 1e-6 relative;
//  2. with each chunk's length kept in one byte, Lucene's SmallFloat:
//     exact up to 39 terms, rounded down by up to about 6% above (N, df
//     and the average length stay exact); the reference rounds the same
//     way (fieldnorm);
//  3. with corpus statistics that count the rows an update replaced or a
//     delete removed until the index is rebuilt (Purge);
//  4. and, from a tsvector, at most 256 positions per term and positions
//     up to 16383: a term repeated more than 256 times in a chunk, or a
//     chunk of more than 16383 terms, counts short (not exercised: the
//     corpus stays within both limits, as fonte's chunks do).
func TestPgTextsearchScores(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	recs := corpus(9, 60, 4)
	put(t, s, recs...)
	c := rawConn(t)
	raw := func(q []string) map[chunkRef]float64 {
		tokens := make([]string, len(q))
		for i, term := range q {
			tokens[i] = lexToken(term)
		}
		rows, err := c.Query(ctx, "SELECT doc_id, position, -(lex <@> to_bm25query($1::text, $2::text)) FROM "+s.table("chunks")+
			" ORDER BY lex <@> to_bm25query($1::text, $2::text) LIMIT 1000", strings.Join(tokens, " "), s.table(bm25Index))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[chunkRef]float64{}
		for rows.Next() {
			var r chunkRef
			var score float64
			if err := rows.Scan(&r.doc, &r.pos, &score); err != nil {
				t.Fatal(err)
			}
			if score > 0 {
				out[r] = score
			}
		}
		return out
	}
	compare := func(what string, ref *referenceBM25, tol float64) (worst float64) {
		t.Helper()
		for _, q := range queries(10, 20) {
			want := ref.scores(q)
			got := raw(q)
			for i, w := range want {
				g, found := got[ref.refs[i]]
				if w > 0 != found {
					t.Fatalf("%s %q: %v scores %v, reference %v", what, q, ref.refs[i], g, w)
				}
				worst = max(worst, math.Abs(g-w)/max(w, 1e-9))
			}
		}
		if tol > 0 && worst > tol {
			t.Errorf("%s: scores differ by up to %.2g (relative), want at most %.2g", what, worst, tol)
		}
		return worst
	}
	if err := s.Purge(ctx); err != nil { // every chunk in a segment
		t.Fatal(err)
	}
	ref := newReferenceBM25(recs)
	ref.quantize = true
	compare("rounded lengths", ref, 2e-6) // differences 1 and 2
	ref.quantize = false
	exact := compare("exact lengths", ref, 0)
	t.Logf("pg_textsearch's scores differ from fonte's BM25 by up to %.3f%% on this corpus (rounded lengths)", 100*exact)
	if exact < 1e-4 {
		t.Errorf("pg_textsearch no longer rounds lengths (largest difference %.2g): the store could use its scores as they are", exact)
	}

	// Difference 3: delete half the documents; until Purge, N and df
	// still count them.
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		for _, r := range recs[:30] {
			if _, err := tx.Delete(ctx, r.Doc.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ref = newReferenceBM25(recs[30:])
	ref.quantize = true
	if stale := compare("after deletes", ref, 0); stale < 1e-3 {
		t.Errorf("pg_textsearch's scores after deletes differ from live statistics by only %.2g: it now drops deleted rows at once", stale)
	}
	if err := s.Purge(ctx); err != nil {
		t.Fatal(err)
	}
	compare("after deletes and Purge", ref, 2e-6)
}

var memtableLine = regexp.MustCompile(`Memtable:\s+terms: \d+\s+documents: (\d+)`)

// memtableDocs is the number of chunks in pg_textsearch's memtable, from
// its index summary.
func memtableDocs(t *testing.T, u string) int {
	t.Helper()
	var summary string
	err := rawConn(t).QueryRow(context.Background(), "SELECT bm25_summarize_index($1)", schemaName(collectionOf(t, u))+"."+bm25Index).Scan(&summary)
	if err != nil {
		t.Fatal(err)
	}
	m := memtableLine.FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("no memtable line in pg_textsearch's summary:\n%s", summary)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// termStatsOf computes TermStats from records.
func termStatsOf(recs []fonte.Record, terms []string) fonte.TermStats {
	st := fonte.TermStats{DF: make([]int, len(terms))}
	for _, r := range recs {
		for _, ts := range r.Terms {
			st.Chunks++
			st.TotalTerms += int64(len(ts))
			for i, t := range terms {
				if slices.Contains(ts, t) {
					st.DF[i]++
				}
			}
		}
	}
	return st
}

func TestTermStatsExact(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	probe := append(slices.Clone(vocabulary), "nosuchterm", "", "sop", "\xff", "a\x00b", "policy")
	check := func(what string, recs []fonte.Record) {
		t.Helper()
		got, err := s.TermStats(ctx, probe, fonte.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want := termStatsOf(recs, probe)
		if got.Chunks != want.Chunks || got.TotalTerms != want.TotalTerms || !slices.Equal(got.DF, want.DF) {
			t.Fatalf("%s: TermStats = %+v,\nwant %+v", what, got, want)
		}
	}
	check("empty", nil)
	recs := corpus(7, 40, 4)
	put(t, s, recs...)
	check("first commit", recs)
	// Replace, delete, put twice in one transaction, delete what was put.
	more := corpus(8, 50, 4)
	err := s.Update(ctx, func(tx fonte.StoreTx) error {
		for i := range 10 {
			more[i].Doc.ID = recs[i].Doc.ID
			for j := range more[i].Chunks {
				more[i].Chunks[j].DocID = recs[i].Doc.ID
			}
			recs[i] = more[i]
			if err := tx.Put(ctx, more[i]); err != nil {
				return err
			}
		}
		for i := 10; i < 15; i++ {
			if _, err := tx.Delete(ctx, recs[i].Doc.ID); err != nil {
				return err
			}
		}
		recs = slices.Delete(recs, 10, 15)
		for _, r := range more[40:45] {
			r.Doc.ID = "new/" + r.Doc.ID
			for j := range r.Chunks {
				r.Chunks[j].DocID = r.Doc.ID
			}
			if err := tx.Put(ctx, r); err != nil {
				return err
			}
			if err := tx.Put(ctx, r); err != nil {
				return err
			}
			recs = append(recs, r)
		}
		if err := tx.Put(ctx, record("transient.md", 4, "policy policy nosuchterm")); err != nil {
			return err
		}
		_, err := tx.Delete(ctx, "transient.md")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	check("after changes", recs)
}

func TestLexicalFullTextFallback(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t, "lexical", "fts")
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	st := status(t, s)
	if st.Lexical != "PostgreSQL full-text search (ts_rank_cd), not BM25" {
		t.Fatalf("Lexical = %q", st.Lexical)
	}
	recs := corpus(11, 40, 4)
	put(t, s, recs...)
	ref := newReferenceBM25(recs)
	for _, q := range queries(12, 15) {
		for _, f := range []fonte.Filter{{}, {Prefixes: []string{"eng/"}, Tags: []string{"public"}}} {
			got, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: 1000, Filter: f})
			if err != nil {
				t.Fatal(err)
			}
			// Every chunk holding a query term is found, and only those;
			// ts_rank_cd orders them, ties by ID and position.
			want := ref.topK(q, 1000, f)
			if len(got) != len(want) {
				t.Fatalf("%q %+v: %d hits, want %d", q, f, len(got), len(want))
			}
			in := map[chunkRef]bool{}
			for _, w := range want {
				in[w.chunkRef] = true
			}
			for i, g := range got {
				if !in[chunkRef{g.Chunk.DocID, g.Chunk.Position}] {
					t.Errorf("%q: %s#%d holds no query term", q, g.Chunk.DocID, g.Chunk.Position)
				}
				if i > 0 {
					p := got[i-1]
					if p.Score < g.Score || p.Score == g.Score && cmp.Or(cmp.Compare(p.Chunk.DocID, g.Chunk.DocID), cmp.Compare(p.Chunk.Position, g.Chunk.Position)) > 0 {
						t.Errorf("%q: rank %d out of order", q, i+1)
					}
				}
			}
		}
		top, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: q, K: 3})
		if err != nil || len(top) > 3 {
			t.Fatalf("K=3: %d hits, %v", len(top), err)
		}
	}
	// A rebuild keeps the full-text column, and a read-only store reads it.
	rb := open(t, u, fonte.StoreOptions{Settings: testSettings, Rebuild: true})
	put(t, rb, record("rebuilt.md", 4, "policy rebuilt"))
	ro := open(t, u, fonte.StoreOptions{ReadOnly: true})
	if ro.bm25 || ro.ftsExpr != ftsColumn {
		t.Fatalf("read-only store: bm25 %v, full-text expression %q", ro.bm25, ro.ftsExpr)
	}
	hits, err := ro.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"policy"}, K: 5})
	if err != nil || len(hits) != 1 || hits[0].Chunk.DocID != "rebuilt.md" {
		t.Fatalf("after the rebuild: %+v, %v", hits, err)
	}
}

// TestBM25LegChecksAShortScan makes pg_textsearch's index miss a whole
// commit (the catalog marks it not ready while the commit writes, so the
// commit's chunks never enter it, and the earlier version's chunks it
// does hold are deleted), as a server dying under a commit once made it
// yield nothing (CI). A scan that yields fewer rows than it was asked for
// is checked against the counts the commits keep, or with a filter
// against the chunks themselves: every chunk of the collection is still
// found, each once, with fonte's BM25, with or without a filter.
func TestBM25LegChecksAShortScan(t *testing.T) {
	ctx := context.Background()
	u := newCollection(t)
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	if !s.bm25 {
		t.Fatalf("the collection searches with %s, not pg_textsearch", status(t, s).Lexical)
	}
	if err := commitVersion(ctx, s, 1); err != nil {
		t.Fatal(err)
	}
	c := rawConn(t)
	index := schemaName(collectionOf(t, u)) + "." + bm25Index
	ready := func(on bool) {
		t.Helper()
		if _, err := c.Exec(ctx, "UPDATE pg_index SET indisready = $1 WHERE indexrelid = $2::regclass", on, index); err != nil {
			t.Fatal(err)
		}
	}
	ready(false)
	if err := commitVersion(ctx, s, 2); err != nil {
		t.Fatal(err)
	}
	ready(true)
	// The index now holds only version 1's chunks, which are gone.
	if _, err := c.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	var scanned int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM (SELECT 1 FROM "+s.table("chunks")+
		" ORDER BY lex <@> to_bm25query('common', $1) LIMIT 100) x", index).Scan(&scanned); err != nil {
		t.Fatal(err)
	}
	all := versionDocs * versionChunks
	if scanned >= all {
		t.Fatalf("the index scan still yields %d rows; the test did not make it miss the commit", scanned)
	}
	seen, err := wholeVersion(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range seen {
		if v != 2 {
			t.Fatalf("read version %d, want 2: %v", v, seen)
		}
	}
	got, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"common"}, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Errorf("K 5: %d hits", len(got))
	}
	got, err = s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"common", "v2"}, K: 5, Filter: fonte.Filter{Prefixes: []string{"d1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != versionChunks {
		t.Errorf("filtered to d1: %d hits, want its %d chunks", len(got), versionChunks)
	}
	for _, h := range got {
		if h.Chunk.DocID != "d1" || versionOfText(h.Chunk.Text) != "2" || h.Score <= 0 {
			t.Errorf("filtered to d1: hit %s %q scored %v", h.Chunk.DocID, h.Chunk.Text, h.Score)
		}
	}
}
