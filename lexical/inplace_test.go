package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/fonte-rag/fonte/analysis"
)

// openInPlace encodes m in the in-place form into an 8-byte-aligned buffer
// (as the store places it in its mapped file) and opens it.
func openInPlace(t testing.TB, m *BM25) (*BM25, []byte) {
	t.Helper()
	form := m.AppendInPlace(nil)
	data := alignedCopy(form, 0)
	flat, err := OpenBM25InPlace(data, m.ix.an)
	if err != nil {
		t.Fatalf("opening the in-place form: %v", err)
	}
	if err := VerifyInPlace(data); err != nil {
		t.Fatalf("verifying the in-place form: %v", err)
	}
	return flat, data
}

// alignedCopy copies b to an address 8-byte aligned plus shift.
func alignedCopy(b []byte, shift int) []byte {
	words := make([]uint64, (len(b)+shift)/8+1)
	all := unsafeBytes(words)
	return append(all[shift:shift:shift+len(b)], b...)
}

// unsafeBytes is the memory of words as bytes.
func unsafeBytes(words []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))
}

// unsafeAt is the address of b[off].
func unsafeAt(b []byte, off int) unsafe.Pointer { return unsafe.Pointer(&b[off]) }

// sameBits reports the first score that differs in its bits.
func sameBits(got, want []float64) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d scores, want %d", len(got), len(want))
	}
	for d := range got {
		if math.Float64bits(got[d]) != math.Float64bits(want[d]) {
			return fmt.Sprintf("doc %d: %v, want %v", d, got[d], want[d])
		}
	}
	return ""
}

// compareModels checks that flat answers every query exactly as m does:
// Scores, Search, TopK and TopKShare with every filter on the default paths
// and with pruning forced, MaxScore and ScoreDoc, bit for bit.
func compareModels(t *testing.T, m, flat *BM25, queries []string, ks []int) {
	t.Helper()
	an := m.ix.an
	rng := rand.New(rand.NewPCG(3, 4))
	for _, query := range queries {
		q := an.Analyze(query)
		if msg := sameBits(flat.Scores(query), m.Scores(query)); msg != "" {
			t.Fatalf("query %q: Scores: %s", query, msg)
		}
		if msg := sameResults(flat.Search(query, 10), m.Search(query, 10)); msg != "" {
			t.Fatalf("query %q: Search: %s", query, msg)
		}
		if a, b := flat.MaxScoreTokens(q), m.MaxScoreTokens(q); math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("query %q: MaxScore %v, want %v", query, a, b)
		}
		for range 5 {
			d := rng.IntN(m.N())
			if a, b := flat.ScoreDoc(q, d), m.ScoreDoc(q, d); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("query %q doc %d: ScoreDoc %v, want %v", query, d, a, b)
			}
		}
		for mode, set := range []struct {
			min   int
			force bool
		}{{defaultPruneMin, false}, {0, true}} {
			pruneMinPostings, forcePrune = set.min, set.force
			for _, f := range filters {
				for _, k := range ks {
					want, got := m.TopK(q, k, f.allow), flat.TopK(q, k, f.allow)
					msg := sameResults(got, want)
					if msg == "" {
						msg = sameResults(flat.TopKShare(q, k, f.allow), m.TopKShare(q, k, f.allow))
					}
					for _, r := range got {
						if a, b := flat.ScoreDoc(q, r.Doc), m.ScoreDoc(q, r.Doc); msg == "" && math.Float64bits(a) != math.Float64bits(b) {
							msg = fmt.Sprintf("ScoreDoc of doc %d: %v, want %v", r.Doc, a, b)
						}
					}
					if msg != "" {
						pruneMinPostings, forcePrune = defaultPruneMin, false
						t.Fatalf("query %q k %d filter %s mode %d: %s", query, k, f.name, mode, msg)
					}
				}
			}
		}
		pruneMinPostings, forcePrune = defaultPruneMin, false
	}
}

// compareIndexes checks every accessor of the in-place index against the
// original's, the forward index (built on first use) included.
func compareIndexes(t *testing.T, ix, flat *Index) {
	t.Helper()
	if flat.N() != ix.N() || flat.NumTerms() != ix.NumTerms() || flat.TotalLen() != ix.TotalLen() ||
		math.Float64bits(flat.AvgDocLen()) != math.Float64bits(ix.AvgDocLen()) {
		t.Fatalf("in place: N %d terms %d total %d avg %v; want %d %d %d %v",
			flat.N(), flat.NumTerms(), flat.TotalLen(), flat.AvgDocLen(), ix.N(), ix.NumTerms(), ix.TotalLen(), ix.AvgDocLen())
	}
	if !slices.Equal(flat.Terms(), ix.Terms()) {
		t.Fatal("in place: vocabulary differs")
	}
	for id, term := range ix.Terms() {
		got, ok := flat.TermID(term)
		if !ok || got != id || flat.Term(id) != term || flat.DocFreq(id) != ix.DocFreq(id) {
			t.Fatalf("term %q: id %d %v, term %q, df %d; want id %d df %d", term, got, ok, flat.Term(id), flat.DocFreq(id), id, ix.DocFreq(id))
		}
		if !reflect.DeepEqual(flat.Postings(id), ix.Postings(id)) {
			t.Fatalf("term %q: postings differ", term)
		}
		if _, ok := flat.TermID(term + "\x00"); ok {
			t.Fatalf("found %q", term+"\x00")
		}
	}
	if _, ok := flat.TermID(""); ok {
		t.Fatal("found the empty term")
	}
	for d := range ix.N() {
		ft, ff := flat.DocTerms(d)
		it, iff := ix.DocTerms(d)
		if flat.DocLen(d) != ix.DocLen(d) || !slices.Equal(ft, it) || !slices.Equal(ff, iff) {
			t.Fatalf("document %d: forward index or length differs", d)
		}
	}
	if err := flat.Damage(); err != nil {
		t.Fatalf("sound form reported damaged: %v", err)
	}
}

// randomQueries is n of randomQuery's queries, as text.
func randomQueries(rng *rand.Rand, words []string, n int) []string {
	queries := make([]string, n)
	for i := range queries {
		queries[i] = strings.Join(randomQuery(rng, words), " ")
	}
	return queries
}

// TestInPlaceCopied opens the form from a misaligned buffer, where the
// numeric sections are decoded copies (as on a big-endian machine): the
// answers are the same.
func TestInPlaceCopied(t *testing.T) {
	docs, words := zipfCorpus(1500, 21)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	data := alignedCopy(m.AppendInPlace(nil), 3)
	flat, err := OpenBM25InPlace(data, analysis.Sklearn())
	if err != nil {
		t.Fatal(err)
	}
	if len(flat.ix.lengths) > 0 && &flat.ix.lengths[0] == (*uint32)(unsafeAt(data, inplaceHeader)) {
		t.Fatal("misaligned lengths were viewed in place")
	}
	rng := rand.New(rand.NewPCG(22, 23))
	var queries []string
	for range 40 {
		queries = append(queries, strings.Join(randomQuery(rng, words), " "))
	}
	compareModels(t, m, flat, queries, []int{1, 10})
	compareIndexes(t, m.ix, flat.ix)
}

// seedCorpus is one of the seeds' corpora with its questions, analyzer
// and BM25 parameters.
type seedCorpus struct {
	name    string
	docs    []string
	queries []string
	an      analysis.Analyzer
	opts    BM25Options
}

// seedCorpora loads the seeds' corpora and questions.
func seedCorpora(t *testing.T) []seedCorpus {
	t.Helper()
	var s0 seed000
	loadJSON(t, filepath.Join(fixtures, "seed000-rulebook-it.json"), &s0)
	var s1 seed001
	loadJSON(t, filepath.Join(fixtures, "seed001-sops-en.json"), &s1)
	var s2 seed002
	loadJSON(t, filepath.Join(fixtures, "seed002-handbook-en.json"), &s2)

	var docs0, q0 []string
	for _, p := range s0.Passages {
		docs0 = append(docs0, p.Text)
	}
	for _, q := range s0.Questions {
		q0 = append(q0, q.Question)
	}
	q0 = append(q0, s0.Unanswerable...)
	var docs1 []string
	for id, text := range s1.Documents {
		docs1 = append(docs1, id+". "+text)
	}
	slices.Sort(docs1)
	var q2 []string
	for _, e := range s2.Eval {
		q2 = append(q2, e.Question)
	}
	q2 = append(q2, s2.Unanswerable...)

	cs := []seedCorpus{
		{"seed000", docs0, q0, analysis.Italian(), DefaultBM25Options()},
		{"seed001", docs1, s1.Queries, analysis.Seed001(), BM25Options{K1: 1.5, B: 0.75}},
		{"seed002", handbookChunks(s2.Handbook), q2, analysis.English(), sciFactParams},
		{"seed002-charwb", handbookChunks(s2.Handbook), q2, analysis.CharWB(4, 5), DefaultBM25Options()},
	}
	for _, c := range cs {
		if len(c.docs) < 6 || len(c.queries) < 3 {
			t.Fatalf("%s: %d documents, %d queries", c.name, len(c.docs), len(c.queries))
		}
	}
	return cs
}

// TestInPlaceSeeds compares the models on the seeds' corpora and questions.
func TestInPlaceSeeds(t *testing.T) {
	for _, c := range seedCorpora(t) {
		t.Run(c.name, func(t *testing.T) {
			m := NewBM25(c.docs, c.an, c.opts)
			flat, _ := openInPlace(t, m)
			compareModels(t, m, flat, c.queries, []int{1, 3, 100})
			compareIndexes(t, m.ix, flat.ix)
		})
	}
}

// TestInPlaceWidths covers the three frequency widths, and an empty model.
func TestInPlaceWidths(t *testing.T) {
	for _, c := range []struct {
		repeat, width int
	}{{255, 1}, {256, 2}, {65535, 2}, {65536, 4}} {
		docs := []string{strings.Repeat("often ", c.repeat) + "rare", "often twice often", "rare other", ""}
		m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
		flat, _ := openInPlace(t, m)
		if flat.ix.flat.width != c.width {
			t.Fatalf("frequency %d stored in %d bytes, want %d", c.repeat, flat.ix.flat.width, c.width)
		}
		compareModels(t, m, flat, []string{"often", "rare often", "other rare rare", "absent"}, []int{1, 3})
		compareIndexes(t, m.ix, flat.ix)
	}
	empty := NewBM25(nil, analysis.Sklearn(), DefaultBM25Options())
	flat, _ := openInPlace(t, empty)
	if flat.N() != 0 || flat.Index().NumTerms() != 0 || len(flat.Search("x", 3)) != 0 || len(flat.Scores("x")) != 0 {
		t.Fatal("empty model answers")
	}
}

// setWord overwrites header word i of an in-place form and reseals it.
func setWord(form []byte, i int, v uint64) []byte {
	out := slices.Clone(form)
	binary.LittleEndian.PutUint64(out[8*i:], v)
	return reseal(out)
}

func TestInPlaceRejects(t *testing.T) {
	an := analysis.Sklearn()
	m := NewBM25([]string{"apple banana apple", "banana cherry", "cherry"}, an, DefaultBM25Options())
	good := m.AppendInPlace(nil)
	old, _ := m.MarshalBinary()
	l := layoutOf(3, 3, 5, uint64(len("applebananacherry")), 1)
	idf := func(t int) int { return int(l[secIDF])/8 + t }
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", good[:len(good)-9]},
		{"header only", good[:inplaceHeader]},
		{"the varint form", old},
		{"version 2", func() []byte { b := slices.Clone(good); b[7] = 2; return reseal(b) }()},
		{"too many documents", setWord(good, 1, 1<<40)},
		{"more documents", setWord(good, 1, 4)},
		{"more terms", setWord(good, 2, 4)},
		{"fewer postings", setWord(good, 3, 4)},
		{"width 3", setWord(good, 8, 3)},
		{"negative k1", setWord(good, 5, math.Float64bits(-1))},
		{"infinite k1", setWord(good, 5, math.Float64bits(math.Inf(1)))},
		{"b above 1", setWord(good, 6, math.Float64bits(1.5))},
		{"wrong average", setWord(good, 7, math.Float64bits(2.5))},
		{"total below postings", setWord(good, 4, 4)},
		{"moved section", setWord(good, inplaceFields+secDocs, l[secDocs]+8)},
		{"unsorted terms", func() []byte {
			b := slices.Clone(good)
			copy(b[l[secDict]:], "b")
			return reseal(b)
		}()},
		{"term ends past the dictionary", func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[l[secTermEnds]+4:], 99)
			return reseal(b)
		}()},
		{"postings starts out of order", func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint64(b[l[secStarts]+8:], 5)
			return reseal(b)
		}()},
		{"NaN idf", setWord(good, idf(1), math.Float64bits(math.NaN()))},
		{"huge idf", setWord(good, idf(1), math.Float64bits(1e300))},
		{"bound above idf·(k1+1)", setWord(good, idf(3+1), math.Float64bits(100))},
	} {
		if _, err := OpenBM25InPlace(c.data, an); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", c.name, err)
		}
	}
	if _, err := OpenBM25InPlace(good, an); err != nil {
		t.Fatalf("the good form: %v", err)
	}

	// The checksum is VerifyInPlace's, not the opener's.
	flipped := slices.Clone(good)
	flipped[l[secDocs]] ^= 1
	if err := VerifyInPlace(flipped); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("VerifyInPlace on a flipped posting: %v", err)
	}
	if _, err := OpenBM25InPlace(flipped, an); err != nil {
		t.Fatalf("the opener checked the postings: %v", err)
	}
	if err := VerifyInPlace(old); !errors.Is(err, ErrFormat) {
		t.Fatalf("VerifyInPlace on the varint form: %v", err)
	}
}

// TestInPlaceDamagedPostings opens forms whose postings were damaged and
// resealed: searches skip the damaged list and report it, never panic.
func TestInPlaceDamagedPostings(t *testing.T) {
	an := analysis.Sklearn()
	docs := []string{"apple banana apple", "banana cherry", "cherry apple", "banana"}
	m := NewBM25(docs, an, DefaultBM25Options())
	good := m.AppendInPlace(nil)
	nt, p := uint64(m.ix.NumTerms()), uint64(m.ix.numPostings())
	l := layoutOf(4, nt, p, uint64(len("applebananacherry")), 1)
	banana, _ := m.ix.TermID("banana") // postings 2, 3, 4: docs 0, 1, 3
	bananaFirst := l[secDocs] + 4*uint64(m.ix.DocFreq(0))
	for _, c := range []struct {
		name  string
		edit  func(b []byte)
		wants string
	}{
		{"document past N", func(b []byte) { binary.LittleEndian.PutUint32(b[bananaFirst+4:], 1<<31) }, "lists document 2147483648"},
		{"document N", func(b []byte) { binary.LittleEndian.PutUint32(b[bananaFirst+8:], 4) }, "lists document 4"},
		{"repeated document", func(b []byte) { binary.LittleEndian.PutUint32(b[bananaFirst+4:], 0) }, "lists document 0 after 0"},
		{"zero frequency", func(b []byte) { b[l[secFreqs]+uint64(m.ix.DocFreq(0))] = 0 }, "frequency 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := slices.Clone(good)
			c.edit(data)
			flat, err := OpenBM25InPlace(reseal(data), an)
			if err != nil {
				t.Fatalf("opening: %v", err)
			}
			for _, q := range []string{"banana", "apple banana", "cherry banana banana"} {
				flat.Scores(q)
				flat.Search(q, 3)
				toks := an.Analyze(q)
				withPruning(t, func() { flat.TopK(toks, 2, nil) })
				flat.TopKShare(toks, 3, nil)
				for d := range 5 {
					flat.ScoreDoc(toks, d)
				}
			}
			if got := flat.Scores("banana"); slices.ContainsFunc(got, func(s float64) bool { return s != 0 }) {
				t.Fatalf("the damaged list scored: %v", got)
			}
			if got := flat.Search("apple", 3); len(got) != 2 {
				t.Fatalf("a sound list stopped scoring: %v", got)
			}
			if err := flat.Index().Damage(); err == nil || !strings.Contains(err.Error(), c.wants) || !strings.Contains(err.Error(), "banana") {
				t.Fatalf("Damage() = %v, want it to name banana and %q", err, c.wants)
			}
			if p := flat.Index().Postings(banana); len(p.Docs) != 0 || len(p.Freqs) != 0 {
				t.Fatalf("damaged postings returned: %+v", p)
			}
			for d := range 4 {
				flat.Index().DocTerms(d) // the forward index skips the list
			}
			NewTFIDFIndex(flat.Index(), TFIDFOptions{}).Search("banana cherry", 2)
		})
	}
}

// TestInPlaceConcurrent searches an in-place model from many goroutines at
// once while its lists are checked on first use (run with -race).
func TestInPlaceConcurrent(t *testing.T) {
	docs, words := zipfCorpus(3000, 31)
	m := NewBM25(docs, analysis.Sklearn(), DefaultBM25Options())
	flat, _ := openInPlace(t, m)
	rng := rand.New(rand.NewPCG(32, 33))
	queries := make([][]string, 64)
	want := make([][]Result, len(queries))
	for i := range queries {
		queries[i] = randomQuery(rng, words)
		want[i] = m.TopK(queries[i], 10, nil)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range queries {
				j := (i + g*7) % len(queries)
				if msg := sameResults(flat.TopK(queries[j], 10, nil), want[j]); msg != "" {
					errs <- fmt.Sprintf("query %q: %s", queries[j], msg)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Fatal(msg)
	}
}
