package vector

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// hnswFixture is a seeded data set with its exact answers, and an index
// built over it; fixtures are built once and shared by the read-only tests.
type hnswFixture struct {
	data, queries synth.Matrix
	flat          *Flat
	truth         [][]Result // Flat's top 10 for each query
	h             *HNSW
}

var (
	fixtureMu sync.Mutex
	fixtures  = map[string]*hnswFixture{}
)

// clusteredFixture draws n vectors of dimension dim from a mixture of
// centres at scale, and 200 queries from the same mixture.
func clusteredFixture(t *testing.T, n, dim, centres int, scale float64, opts HNSWOptions) *hnswFixture {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	mix := synth.NewMixture(rng, centres, dim, scale)
	fx := &hnswFixture{data: mix.Sample(rng, n), queries: mix.Sample(rng, 200), flat: NewFlat(dim)}
	fx.h = NewHNSW(dim, opts)
	for i := range fx.data.Rows {
		if err := fx.flat.Add(uint64(i), fx.data.Row(i)); err != nil {
			t.Fatal(err)
		}
		if err := fx.h.Add(uint64(i), fx.data.Row(i)); err != nil {
			t.Fatal(err)
		}
	}
	fx.truth = fx.flat.SearchBatch(fx.queries.Slices(), 10)
	return fx
}

// sharedFixture returns the named read-only fixture, building it once.
// Tests use EfConstruction 100 to keep `go test` quick; the benchmark
// builds with the default 200.
func sharedFixture(t *testing.T, name string) *hnswFixture {
	t.Helper()
	fixtureMu.Lock()
	defer fixtureMu.Unlock()
	if fx, ok := fixtures[name]; ok {
		return fx
	}
	var fx *hnswFixture
	switch name {
	case "20k×64":
		fx = clusteredFixture(t, 20000, 64, 200, 1, HNSWOptions{EfConstruction: 100})
	case "10k×384":
		fx = clusteredFixture(t, 10000, 384, 200, 0.5, HNSWOptions{EfConstruction: 100})
	default:
		t.Fatalf("no fixture %q", name)
	}
	fixtures[name] = fx
	return fx
}

// recall is the mean share of each query's exact top k found by search.
func recall(fx *hnswFixture, truth [][]Result, search func(q []float32) []Result) float64 {
	found, want := 0, 0
	for qi := range fx.queries.Rows {
		found += overlap(search(fx.queries.Row(qi)), truth[qi])
		want += len(truth[qi])
	}
	return float64(found) / float64(want)
}

// checkResults asserts a result list is ordered, has exact Dot scores and
// holds only ids that ok accepts.
func checkResults(t *testing.T, h *HNSW, vecs func(uint64) []float32, q []float32, got []Result, ok func(uint64) bool) {
	t.Helper()
	for i, r := range got {
		if i > 0 && !before(got[i-1], r) {
			t.Fatalf("results out of order at %d: %v", i, got)
		}
		if !ok(r.ID) {
			t.Fatalf("result %d: id %d not allowed", i, r.ID)
		}
		if s := Dot(q, vecs(r.ID)); s != r.Score {
			t.Fatalf("id %d: score %v, Dot gives %v", r.ID, r.Score, s)
		}
	}
}

// checkGraph asserts the graph's invariants: link counts within capacity,
// no self or duplicate links, links on layer l only to nodes of level ≥ l,
// no links to tombstones after a compaction, every live node reachable
// from the entry point on layer 0.
func checkGraph(t *testing.T, h *HNSW) {
	t.Helper()
	h.mu.RLock()
	defer h.mu.RUnlock()
	n := len(h.ids)
	if h.live+h.deleted != n || len(h.byID) != h.live {
		t.Fatalf("counts: %d live + %d deleted, %d nodes, %d ids mapped", h.live, h.deleted, n, len(h.byID))
	}
	if n == 0 {
		return
	}
	if int(h.level[h.entry]) != h.top || slices.Max(h.level) != uint8(h.top) {
		t.Fatalf("entry %d at level %d, top %d, highest level %d", h.entry, h.level[h.entry], h.top, slices.Max(h.level))
	}
	// onLayer[l] counts the live nodes on layer l: a live node may lack
	// links on a layer only when it is alone there.
	onLayer := make([]int, h.top+1)
	for i, lv := range h.level {
		for l := 0; l <= int(lv) && !h.isDead(uint32(i)); l++ {
			onLayer[l]++
		}
	}
	for i := range uint32(n) {
		for l := 0; l <= int(h.level[i]); l++ {
			links := h.links(i, l)
			capacity := h.m
			if l == 0 {
				capacity = h.m0
			}
			if len(links) > capacity || (len(links) == 0 && !h.isDead(i) && onLayer[l] > 1) {
				t.Fatalf("node %d layer %d: %d links", i, l, len(links))
			}
			seen := map[uint32]bool{}
			for _, x := range links {
				if x == i || seen[x] || int(x) >= n || int(h.level[x]) < l {
					t.Fatalf("node %d layer %d: bad link to %d (%v)", i, l, x, links)
				}
				if h.deleted == 0 && h.isDead(x) {
					t.Fatalf("node %d links to tombstone %d", i, x)
				}
				seen[x] = true
			}
		}
	}
	reached := make([]bool, n)
	stack := []uint32{h.entry}
	reached[h.entry] = true
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, x := range h.links(u, 0) {
			if !reached[x] {
				reached[x] = true
				stack = append(stack, x)
			}
		}
	}
	for i, ok := range reached {
		if !ok && !h.isDead(uint32(i)) {
			t.Fatalf("live node %d (id %d) unreachable from the entry point", i, h.ids[i])
		}
	}
}

func TestHNSWDeterministic(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(1, 1)), 3000, 32, 20, 1)
	build := func(seed uint64) *HNSW {
		h := NewHNSW(32, HNSWOptions{M: 8, EfConstruction: 50, Rand: rand.New(rand.NewPCG(seed, 0))})
		for i := range data.Rows {
			if err := h.Add(uint64(i), data.Row(i)); err != nil {
				t.Fatal(err)
			}
		}
		return h
	}
	a, b := build(7), build(7)
	if a.entry != b.entry || a.top != b.top || !slices.Equal(a.level, b.level) ||
		!slices.Equal(a.nodes, b.nodes) || !slices.Equal(a.upper, b.upper) || !slices.Equal(a.upperOff, b.upperOff) {
		t.Fatal("two builds with the same seed differ")
	}
	var ea, eb bytes.Buffer
	a.Encode(&ea)
	b.Encode(&eb)
	if !bytes.Equal(ea.Bytes(), eb.Bytes()) {
		t.Fatal("two builds with the same seed encode differently")
	}
	c := build(8)
	if slices.Equal(a.level, c.level) {
		t.Fatal("another seed drew the same levels")
	}
	// Levels follow the geometric law: about n/(M-1) upper-layer slots.
	up := 0
	for _, l := range a.level {
		up += int(l)
	}
	if want := 3000.0 / 7; math.Abs(float64(up)-want) > 0.25*want {
		t.Fatalf("%d upper-layer memberships, expected about %.0f", up, want)
	}
	checkGraph(t, a)
}

func TestHNSWDeleteAndCompact(t *testing.T) {
	n := 6000
	if raceEnabled {
		n = 1500
	}
	fx := clusteredFixture(t, n, 48, 50, 1, HNSWOptions{M: 12, EfConstruction: 100, TombstoneShare: -1})
	h := fx.h
	before := recall(fx, fx.truth, func(q []float32) []Result { return h.Search(q, 10) })

	// Delete every fifth id: 20%, below no automatic threshold (disabled).
	for id := uint64(0); id < uint64(n); id += 5 {
		fx.flat.Delete(id)
		if !h.Delete(id) {
			t.Fatalf("Delete(%d) = false for a stored id", id)
		}
		if h.Delete(id) {
			t.Fatalf("second Delete(%d) = true", id)
		}
	}
	if h.Len() != n-n/5 || h.deleted != n/5 {
		t.Fatalf("Len %d, %d tombstones after deleting %d of %d", h.Len(), h.deleted, n/5, n)
	}
	truth := fx.flat.SearchBatch(fx.queries.Slices(), 10)
	live := func(id uint64) bool { return id%5 != 0 }
	row := func(id uint64) []float32 { return fx.data.Row(int(id)) }
	check := func(stage string) float64 {
		t.Helper()
		return recall(fx, truth, func(q []float32) []Result {
			got := h.Search(q, 10)
			checkResults(t, h, row, q, got, live)
			if len(got) != 10 {
				t.Fatalf("%s: %d results", stage, len(got))
			}
			return got
		})
	}
	tomb := check("tombstones")
	// Deleted ids are never returned, even when the query is their vector.
	for id := uint64(0); id < 200; id += 5 {
		for _, r := range h.SearchEf(fx.data.Row(int(id)), 20, 100) {
			if r.ID%5 == 0 {
				t.Fatalf("deleted id %d returned", r.ID)
			}
		}
	}
	checkGraph(t, h)

	nodes := len(h.ids)
	h.Compact()
	if h.Len() != n-n/5 || h.deleted != 0 || len(h.ids) != h.Len() || len(h.ids) >= nodes {
		t.Fatalf("after Compact: Len %d, %d tombstones, %d nodes", h.Len(), h.deleted, len(h.ids))
	}
	checkGraph(t, h)
	compacted := check("compacted")
	t.Logf("recall@10: %.4f built, %.4f with 20%% tombstones, %.4f compacted", before, tomb, compacted)
	if tomb < 0.95 || compacted < 0.95 || compacted < tomb-0.01 {
		t.Errorf("recall %.4f with tombstones, %.4f compacted, want ≥ 0.95 and no loss", tomb, compacted)
	}
	// The compacted index keeps working: re-adding a deleted id finds it.
	if err := h.Add(5, fx.data.Row(5)); err != nil {
		t.Fatal(err)
	}
	if got := h.Search(fx.data.Row(5), 1); len(got) != 1 || got[0].ID != 5 {
		t.Fatalf("re-added id 5 not found first: %v", got)
	}
}

func TestHNSWAutoCompact(t *testing.T) {
	data := synth.Clustered(rand.New(rand.NewPCG(3, 3)), 1000, 16, 10, 1)
	h := NewHNSW(16, HNSWOptions{M: 8, EfConstruction: 40}) // default share 0.25
	for i := range data.Rows {
		h.Add(uint64(i), data.Row(i))
	}
	for id := range uint64(250) {
		h.Delete(id)
	}
	if h.deleted != 250 || len(h.ids) != 1000 {
		t.Fatalf("at exactly 25%%: %d tombstones, %d nodes", h.deleted, len(h.ids))
	}
	h.Delete(250) // now above a quarter
	if h.deleted != 0 || len(h.ids) != 749 || h.Len() != 749 {
		t.Fatalf("after crossing the threshold: %d tombstones, %d nodes, Len %d", h.deleted, len(h.ids), h.Len())
	}
	checkGraph(t, h)
	// Deleting everything empties the index; it fills again.
	for id := range uint64(1000) {
		h.Delete(id)
	}
	if h.Len() != 0 || len(h.ids) != 0 || h.Search(data.Row(0), 3) != nil {
		t.Fatalf("emptied index: Len %d, %d nodes", h.Len(), len(h.ids))
	}
	h.Add(9, data.Row(9))
	if got := h.Search(data.Row(0), 3); len(got) != 1 || got[0].ID != 9 {
		t.Fatalf("refilled index answers %v", got)
	}
}

func TestHNSWReplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	h := NewHNSW(24, HNSWOptions{M: 6, EfConstruction: 30})
	vecs := map[uint64][]float32{}
	for id := range uint64(500) {
		vecs[id] = gaussVector(rng, 24)
		h.Add(id, vecs[id])
	}
	// The same vector again is a no-op, not a tombstone.
	h.Add(7, vecs[7])
	if h.deleted != 0 || h.Len() != 500 {
		t.Fatalf("re-adding an unchanged vector: %d tombstones, Len %d", h.deleted, h.Len())
	}
	old := vecs[7]
	vecs[7] = gaussVector(rng, 24)
	h.Add(7, vecs[7])
	if h.Len() != 500 || h.deleted != 1 {
		t.Fatalf("replacing: Len %d, %d tombstones", h.Len(), h.deleted)
	}
	if got := h.Search(vecs[7], 1); got[0].ID != 7 || got[0].Score != Dot(vecs[7], vecs[7]) {
		t.Fatalf("replaced vector: %v", got)
	}
	for _, r := range h.SearchEf(old, 10, 100) {
		if r.ID == 7 && r.Score != Dot(old, vecs[7]) {
			t.Fatalf("id 7 scored on its old vector: %v", r)
		}
	}
	checkGraph(t, h)
}

func TestHNSWSearchFilter(t *testing.T) {
	// Small data: every filter is selective enough for the exact scan, so
	// results are exactly Flat's.
	rng := rand.New(rand.NewPCG(5, 5))
	const dim = 13
	h := NewHNSW(dim, HNSWOptions{M: 6, EfConstruction: 40, TombstoneShare: -1})
	f := NewFlat(dim)
	for i := range 1500 {
		id := uint64(i*7 + 3)
		v := tieVector(rng, dim) // many exact ties: the id order matters
		h.Add(id, v)
		f.Add(id, v)
	}
	for id := uint64(3); id < 7*1500; id += 7 * 11 {
		h.Delete(id)
		f.Delete(id)
	}
	filters := map[string]func(uint64) bool{
		"even":  func(id uint64) bool { return id%2 == 0 },
		"1/97":  func(id uint64) bool { return id%97 == 0 },
		"none":  func(uint64) bool { return false },
		"all":   func(uint64) bool { return true },
		"first": func(id uint64) bool { return id < 700 },
	}
	for name, allow := range filters {
		for qi := range 20 {
			q := tieVector(rng, dim)
			for _, k := range []int{1, 10, 100} {
				got, want := h.SearchFilter(q, k, allow), f.SearchFilter(q, k, allow)
				if !equalResults(got, want) {
					t.Fatalf("%s query %d k=%d:\n got %v\nwant %v", name, qi, k, got, want)
				}
			}
		}
	}
	if got := h.SearchFilter(tieVector(rng, dim), 5, nil); len(got) != 5 {
		t.Fatalf("nil filter: %d results", len(got))
	}

	if raceEnabled {
		return
	}
	// Large data, a filter allowing half: the graph search, which must
	// keep only allowed ids and find nearly all of the filtered top 10.
	fx := sharedFixture(t, "10k×384")
	odd := func(id uint64) bool { return id%2 == 1 }
	truth := make([][]Result, fx.queries.Rows)
	for qi := range truth {
		truth[qi] = fx.flat.SearchFilter(fx.queries.Row(qi), 10, odd)
	}
	row := func(id uint64) []float32 { return fx.data.Row(int(id)) }
	r := recall(fx, truth, func(q []float32) []Result {
		got := fx.h.SearchFilter(q, 10, odd)
		checkResults(t, fx.h, row, q, got, odd)
		if len(got) != 10 {
			t.Fatalf("%d results", len(got))
		}
		return got
	})
	t.Logf("filtered recall@10 (half allowed, graph search): %.4f", r)
	if r < 0.95 {
		t.Errorf("filtered recall %.4f, want ≥ 0.95", r)
	}
	// A filter far more selective near the queries than overall: allowed
	// ids all in one region the queries mostly are not near. Results are
	// still exactly the filtered top k, by the budget fallback or the
	// search itself.
	region := map[uint64]bool{}
	for _, res := range fx.flat.Search(fx.data.Row(0), 3000) {
		region[res.ID] = true
	}
	inRegion := func(id uint64) bool { return region[id] }
	for qi := range 20 {
		q := fx.queries.Row(qi)
		got, want := fx.h.SearchFilter(q, 10, inRegion), fx.flat.SearchFilter(q, 10, inRegion)
		if overlap(got, want) < 9 {
			t.Fatalf("region filter, query %d:\n got %v\nwant %v", qi, got, want)
		}
	}
}

func TestHNSWConcurrent(t *testing.T) {
	const dim = 16
	rng := rand.New(rand.NewPCG(8, 8))
	data := synth.Clustered(rng, 3000, dim, 10, 1)
	h := NewHNSW(dim, HNSWOptions{M: 6, EfConstruction: 30, Quantize: true})
	for i := range 1200 {
		h.Add(uint64(i), data.Row(i))
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				q := data.Row((g*997 + i*31) % data.Rows)
				var got []Result
				switch i % 3 {
				case 0:
					got = h.Search(q, 5)
				case 1:
					got = h.SearchEf(q, 5, 20)
				default:
					got = h.SearchFilter(q, 5, func(id uint64) bool { return id%3 != 0 })
				}
				if len(got) != 5 {
					t.Errorf("%d results", len(got))
					return
				}
				for j := 1; j < len(got); j++ {
					if !before(got[j-1], got[j]) {
						t.Errorf("unordered results %v", got)
						return
					}
				}
				_ = h.Len()
			}
		})
	}
	// Writes, including ones that cross the compaction threshold and the
	// quantizer's refit.
	for i := 1200; i < data.Rows; i++ {
		if err := h.Add(uint64(i), data.Row(i)); err != nil {
			t.Error(err)
		}
		if i%4 == 0 {
			h.Delete(uint64(i / 2))
		}
	}
	var buf bytes.Buffer
	if err := h.Encode(&buf); err != nil {
		t.Error(err)
	}
	h.Compact()
	close(stop)
	wg.Wait()
	checkGraph(t, h)
}

func TestHNSWEncodeRoundTrip(t *testing.T) {
	for _, quant := range []bool{false, true} {
		data := synth.Clustered(rand.New(rand.NewPCG(9, 9)), 2500, 20, 20, 1)
		h := NewHNSW(20, HNSWOptions{M: 6, EfConstruction: 40, EfSearch: 24, KeepPruned: true, Quantize: quant, TombstoneShare: -1})
		for i := range data.Rows {
			h.Add(uint64(i)*3, data.Row(i))
		}
		for id := uint64(0); id < 7500; id += 33 {
			h.Delete(id) // tombstones are part of the encoding
		}
		var buf bytes.Buffer
		if err := h.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		encoded := bytes.Clone(buf.Bytes())
		buf.WriteString("next")
		g, err := DecodeHNSW(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != "next" {
			t.Fatalf("decoder read past its encoding: %q left", buf.String())
		}
		if g.Len() != h.Len() || g.Dim() != 20 || g.Options() != (HNSWOptions{M: 6, EfConstruction: 40, EfSearch: 24,
			LevelMult: h.mult, KeepPruned: true, Quantize: quant, TombstoneShare: -1, Rand: g.rng}) {
			t.Fatalf("decoded Len %d, options %+v", g.Len(), g.Options())
		}
		if (g.codec != nil) != quant || !slices.Equal(g.codes, h.codes) {
			t.Fatalf("quantize %v: codes differ after decoding", quant)
		}
		rng := rand.New(rand.NewPCG(1, 1))
		for range 200 {
			q := gaussVector(rng, 20)
			for _, ef := range []int{5, 24, 100} {
				if !equalResults(h.SearchEf(q, 10, ef), g.SearchEf(q, 10, ef)) {
					t.Fatalf("quantize %v ef %d: decoded index answers differently", quant, ef)
				}
			}
			odd := func(id uint64) bool { return id%2 == 1 }
			if !equalResults(h.SearchFilter(q, 10, odd), g.SearchFilter(q, 10, odd)) {
				t.Fatal("decoded index filters differently")
			}
		}
		var again bytes.Buffer
		g.Encode(&again)
		if !bytes.Equal(encoded, again.Bytes()) {
			t.Fatal("re-encoding the decoded index gives other bytes")
		}
		checkGraph(t, g)
		// The decoded index is fully working.
		if g.Delete(0) || !g.Delete(3) {
			t.Fatal("decoded index lost its id map")
		}
		if err := g.Add(1, data.Row(0)); err != nil || g.Search(data.Row(0), 1)[0].ID != 0 && g.Search(data.Row(0), 1)[0].ID != 1 {
			t.Fatalf("Add to decoded index: %v", err)
		}
		g.Compact()
		checkGraph(t, g)
		checkCorruption(t, encoded, func(r io.Reader) error { _, err := DecodeHNSW(r); return err })
	}

	// Corruption the checksum cannot see: a link out of range with a
	// recomputed CRC is refused by validation.
	var buf bytes.Buffer
	h := NewHNSW(4, HNSWOptions{M: 2})
	for i := range 20 {
		h.Add(uint64(i), []float32{float32(i), 1, 0, 0})
	}
	h.block(0, 0)[1] = 999
	h.Encode(&buf)
	if _, err := DecodeHNSW(&buf); !errors.Is(err, ErrFormat) {
		t.Fatalf("link out of range: %v, want ErrFormat", err)
	}

	// An empty index round-trips.
	buf.Reset()
	NewHNSW(5, HNSWOptions{}).Encode(&buf)
	e, err := DecodeHNSW(&buf)
	if err != nil || e.Len() != 0 || e.Dim() != 5 || e.Search(make([]float32, 5), 3) != nil {
		t.Fatalf("empty round trip: %v", err)
	}
	e.Add(1, []float32{1, 0, 0, 0, 0})
	if e.Len() != 1 {
		t.Fatal("Add to a decoded empty index")
	}
	// Flat's decoder refuses an HNSW encoding and the other way round.
	var fb bytes.Buffer
	NewFlat(5).Encode(&fb)
	if _, err := DecodeHNSW(&fb); !errors.Is(err, ErrFormat) {
		t.Fatalf("Flat encoding decoded as HNSW: %v", err)
	}
}

func TestHNSWEdgeCases(t *testing.T) {
	h := NewHNSW(3, HNSWOptions{})
	var de *DimensionError
	if err := h.Add(1, []float32{1, 2}); !errors.As(err, &de) || de.Want != 3 || de.Got != 2 {
		t.Fatalf("wrong dimension: %v", err)
	}
	if err := h.Add(1, []float32{1, float32(math.NaN()), 0}); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("NaN: %v", err)
	}
	if h.Len() != 0 || h.Search([]float32{1, 0, 0}, 5) != nil {
		t.Fatal("empty index is not empty")
	}
	func() {
		defer func() {
			if _, ok := recover().(*DimensionError); !ok {
				t.Fatal("query of the wrong dimension did not panic with a *DimensionError")
			}
		}()
		h.Search([]float32{1}, 1)
	}()
	// Duplicates: equal scores come back by ascending id.
	for _, id := range []uint64{9, 4, 6, 1} {
		h.Add(id, []float32{0, 1, 0})
	}
	h.Add(2, []float32{1, 0, 0})
	got := h.Search([]float32{0, 1, 0}, 10)
	want := []Result{{1, 1}, {4, 1}, {6, 1}, {9, 1}, {2, 0}}
	if !equalResults(got, want) || h.Search([]float32{0, 1, 0}, 0) != nil {
		t.Fatalf("ties: %v, want %v", got, want)
	}
	for name, opts := range map[string]HNSWOptions{
		"M=1":        {M: 1},
		"negative":   {EfSearch: -1},
		"level mult": {LevelMult: math.Inf(1)},
		"share NaN":  {TombstoneShare: math.NaN()},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			NewHNSW(3, opts)
		}()
	}
	o := NewHNSW(3, HNSWOptions{}).Options()
	if o.M != 16 || o.EfConstruction != 200 || o.EfSearch != 64 || o.TombstoneShare != 0.25 || math.Abs(o.LevelMult-1/math.Log(16)) > 1e-15 || o.Rand == nil {
		t.Fatalf("defaults %+v", o)
	}
}

func TestInt8Codec(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	if _, err := FitInt8(nil, 4); err == nil {
		t.Fatal("FitInt8 of no data")
	}
	if _, err := FitInt8(make([]float32, 7), 4); err == nil {
		t.Fatal("FitInt8 of ragged data")
	}
	if _, err := FitInt8([]float32{float32(math.Inf(-1))}, 1); !errors.Is(err, ErrNotFinite) {
		t.Fatal("FitInt8 of infinite data")
	}
	for _, dim := range []int{1, 7, 13, 384, 1029} {
		data := synth.Sphere(rng, 50, dim)
		// One constant dimension, which must encode to zero steps.
		for i := range data.Rows {
			data.Row(i)[0] = 0.25
		}
		c, err := FitInt8(data.Data, dim)
		if err != nil {
			t.Fatal(err)
		}
		if c.Dim() != dim || c.CodeLen() != (dim+7)/8 {
			t.Fatalf("dim %d: Dim %d, CodeLen %d", dim, c.Dim(), c.CodeLen())
		}
		for i := range 10 {
			v := data.Row(i)
			code := c.Encode(nil, v)
			back := c.Decode(nil, code)
			for j := range v {
				if d := math.Abs(float64(back[j] - v[j])); d > float64(c.step[j])/2+1e-6 {
					t.Fatalf("dim %d coordinate %d: %v decodes to %v, step %v", dim, j, v[j], back[j], c.step[j])
				}
			}
			q := data.Row(i + 10)
			// The score is q · decode(code) up to the query's rounding:
			// at most half a query step per coordinate times the code.
			p := c.NewQuery(q)
			exact := Dot(q, back)
			bound := float64(p.beta) / 2 * float64(dim) * int8Max * 1.01
			if d := math.Abs(float64(p.Score(code) - exact)); d > bound+1e-4 {
				t.Fatalf("dim %d: Score %v, q·decoded %v (bound %v)", dim, p.Score(code), exact, bound)
			}
		}
	}
	// Out-of-range values clamp.
	c, _ := FitInt8([]float32{0, 1}, 1)
	if got := c.Encode(nil, []float32{5}); got[0] != int8Max {
		t.Fatalf("5 in [0, 1] encodes to %d", got[0])
	}
	if got := c.Encode(nil, []float32{-5}); got[0] != 0 {
		t.Fatalf("-5 in [0, 1] encodes to %d", got[0])
	}
}

// The kernel against the plain integer sums, at the extremes of its
// ranges: all-127 codes and queries overflow nothing, and long vectors go
// through the lane fold.
func TestDotInt8Kernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, dim := range []int{8, 16, 24, 512, 520, 1024, 4096} {
		for trial := range 4 {
			r, c := make([]uint64, dim), make([]uint64, dim)
			for j := range dim {
				switch trial {
				case 0:
					r[j], c[j] = int8Max, int8Max
				default:
					r[j], c[j] = rng.Uint64N(int8Max+1), rng.Uint64N(int8Max+1)
				}
			}
			var wantDot, wantSum uint64
			for j := range dim {
				wantDot += r[j] * c[j]
				wantSum += c[j]
			}
			words := dim / 8
			even, odd, code := make([]uint64, words), make([]uint64, words), make([]uint64, words)
			for b := range words {
				j := 8 * b
				for i := range 8 {
					code[b] |= c[j+i] << (8 * i)
				}
				even[b] = r[j+6] | r[j+4]<<16 | r[j+2]<<32 | r[j]<<48
				odd[b] = r[j+7] | r[j+5]<<16 | r[j+3]<<32 | r[j+1]<<48
			}
			if d, s := dotInt8(even, odd, code); d != wantDot || s != wantSum {
				t.Fatalf("dim %d trial %d: dot %d sum %d, want %d %d", dim, trial, d, s, wantDot, wantSum)
			}
		}
	}
}

// quantizedCopy shares h's graph and vectors and adds Int8 codes: the
// graph does not depend on quantization, so the same build serves both.
func quantizedCopy(h *HNSW) *HNSW {
	q := &HNSW{
		dim: h.dim, m: h.m, m0: h.m0, efC: h.efC, efS: h.efS, mult: h.mult,
		share: h.share, quantize: true, rng: h.rng, external: h.external,
		nodes: h.nodes, vecs: h.vecs, stride: h.stride, linkOff: h.linkOff, rows: h.rows,
		ids: h.ids, level: h.level,
		upperOff: h.upperOff, upper: h.upper, dead: h.dead, byID: h.byID,
		live: h.live, deleted: h.deleted, entry: h.entry, top: h.top,
	}
	q.fit()
	return q
}

// overlap counts the ids of got that are in want.
func overlap(got, want []Result) int {
	c := 0
	for _, g := range got {
		for _, w := range want {
			if g.ID == w.ID {
				c++
				break
			}
		}
	}
	return c
}
