package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/fonte-rag/fonte/synth"
)

// oneTopic draws n vectors and nq queries of dimension dim around a
// single centre with synth's corpus spread (centres at scale 0.5 against
// unit noise): every vector is nearly as close to a query as its true
// neighbours are, the data on which an HNSW walk needs a long candidate
// list (a topic of a million-chunk synth corpus holds 5,000 such).
func oneTopic(seed uint64, n, nq, dim int) (data, queries synth.Matrix) {
	rng := rand.New(rand.NewPCG(seed, 0))
	mix := synth.NewMixture(rng, 1, dim, 0.5)
	return mix.Sample(rng, n), mix.Sample(rng, nq)
}

// externalGraph builds an External graph over data's rows, ids their
// numbers.
func externalGraph(t testing.TB, data synth.Matrix, opts HNSWOptions) *HNSW {
	t.Helper()
	opts.External = true
	g := NewHNSW(data.Dim, opts)
	ids := make([]uint64, data.Rows)
	for i := range ids {
		ids[i] = uint64(i)
	}
	if err := g.AddBatch(ids, data.Slices(), 1); err != nil {
		t.Fatal(err)
	}
	return g
}

// recallAt10 is the share of the exact top 10 that the top 10 of
// search(q) holds, over the queries.
func recallAt10(data, queries synth.Matrix, search func(q []float32) []Result) float64 {
	f := NewFlat(data.Dim)
	for i := range data.Rows {
		f.Add(uint64(i), data.Row(i))
	}
	found := 0
	for i := range queries.Rows {
		got := search(queries.Row(i))
		got = got[:min(10, len(got))]
		for _, w := range f.Search(queries.Row(i), 10) {
			if slices.ContainsFunc(got, func(r Result) bool { return r.ID == w.ID }) {
				found++
			}
		}
	}
	return float64(found) / float64(10*queries.Rows)
}

// TestHNSWQuantizedRecallOneTopic: on one hard topic, for several seeds,
// a quantized External graph's walk on codes, re-ranking only its best
// 2k candidates on the rows, finds at least 0.95 of the exact top 10 with
// a list of 400, as many as the float32 walk finds (within 0.02), and
// every score it returns is the exact Dot.
func TestHNSWQuantizedRecallOneTopic(t *testing.T) {
	seeds := uint64(2)
	if raceEnabled {
		seeds = 1 // the race detector slows the distances twentyfold
	}
	for seed := range seeds {
		data, queries := oneTopic(seed, 3000, 40, 384)
		g := externalGraph(t, data, HNSWOptions{Quantize: true, EfConstruction: 100})
		if !g.HasCodes() {
			t.Fatal("a quantized graph of 2,500 vectors walks on float32")
		}
		const ef, depth = 400, 50 // the store's list, and the dense leg's depth
		quant := recallAt10(data, queries, func(q []float32) []Result {
			rs := g.SearchEf(q, depth, ef)
			for _, r := range rs {
				if want := Dot(q, data.Row(int(r.ID))); r.Score != want {
					t.Fatalf("seed %d: id %d scored %v, its Dot is %v", seed, r.ID, r.Score, want)
				}
			}
			return rs
		})
		g.codec = nil // the same graph, walked on float32
		float := recallAt10(data, queries, func(q []float32) []Result { return g.SearchEf(q, depth, ef) })
		t.Logf("seed %d recall quant %.3f float %.3f", seed, quant, float)
		if quant < 0.95 || quant < float-0.02 {
			t.Errorf("seed %d: recall@10 at ef %d on codes %.3f, on float32 %.3f: want at least 0.95 and the float32 walk's", seed, ef, quant, float)
		}
	}
}

// TestHNSWQuantizedRerankReadsOnlyTheBest: a quantized search reads the
// float32 rows of its best 2k candidates by code score only, not of all
// ef. The rows are negated after the build, so that every row it re-ranks
// scores the opposite of its code: re-ranking all 400 candidates returned
// the worst of them, re-ranking the best 16 returns one of those.
func TestHNSWQuantizedRerankReadsOnlyTheBest(t *testing.T) {
	data, queries := oneTopic(9, 2000, 20, 64)
	g := externalGraph(t, data, HNSWOptions{Quantize: true, EfConstruction: 60})
	truth := slices.Clone(data.Data)
	for i := range data.Data {
		data.Data[i] = -data.Data[i]
	}
	f := NewFlat(data.Dim)
	for i := range data.Rows {
		f.Add(uint64(i), truth[i*data.Dim:(i+1)*data.Dim])
	}
	for i := range queries.Rows {
		q := queries.Row(i)
		rs := g.SearchEf(q, 1, 400)
		if len(rs) != 1 {
			t.Fatalf("query %d: %d results, want 1", i, len(rs))
		}
		exact := f.Search(q, 60)
		if !slices.ContainsFunc(exact, func(r Result) bool { return r.ID == rs[0].ID }) {
			t.Fatalf("query %d: id %d is not among the 60 nearest: the search re-ranked candidates far down its list", i, rs[0].ID)
		}
	}
}

// TestHNSWLoadCodes: LoadCodes moves an in-place graph's codes from the
// form to the heap, and searches answer exactly as before; a graph
// without codes, or one already on the heap, copies nothing.
func TestHNSWLoadCodes(t *testing.T) {
	f := newInPlaceFixture(t, 1500, 24, 8, true)
	form := alignedCopy(f.g.AppendInPlace(nil), 0)
	h, err := OpenHNSWInPlace(form, f.rowOf(f.g.AppendNodeIDs(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !h.HasCodes() || !inside(h.codes, form) {
		t.Fatal("the opened graph does not view its codes in the form")
	}
	var before [][]Result
	for i := range f.queries.Rows {
		before = append(before, h.SearchEf(f.queries.Row(i), 10, 50))
	}
	off := int(uintptr(unsafe.Pointer(&h.codes[0])) - uintptr(unsafe.Pointer(&form[0])))
	size := 8 * len(h.codes)
	if n := h.LoadCodes(); n != size {
		t.Fatalf("LoadCodes copied %d bytes of %d", n, size)
	}
	// The form's codes are zeroed: a search still reading them would walk
	// on nothing.
	clear(form[off : off+size])
	for i := range f.queries.Rows {
		if got := h.SearchEf(f.queries.Row(i), 10, 50); !equalResults(got, before[i]) {
			t.Fatalf("query %d after LoadCodes: %v, before %v", i, got, before[i])
		}
	}
	if n := h.LoadCodes(); n != 0 {
		t.Fatalf("a second LoadCodes copied %d bytes", n)
	}
	plain := newInPlaceFixture(t, 1500, 24, 8, false)
	p, err := OpenHNSWInPlace(alignedCopy(plain.g.AppendInPlace(nil), 0), plain.rowOf(plain.g.AppendNodeIDs(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasCodes() || p.LoadCodes() != 0 {
		t.Fatal("a graph without codes reports codes")
	}
}
