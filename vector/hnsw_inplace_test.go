package vector

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/fonte-rag/fonte/synth"
)

// inPlaceFixture is an External graph with tombstones and upper layers,
// the rows of its live ids, and queries.
type inPlaceFixture struct {
	g       *HNSW
	rows    map[uint64][]float32
	queries synth.Matrix
	spare   synth.Matrix // vectors to add later
}

// newInPlaceFixture builds n vectors of dimension dim with link count m,
// every seventh id deleted (tombstones kept: no compaction).
func newInPlaceFixture(t testing.TB, n, dim, m int, quantize bool) *inPlaceFixture {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(m)))
	data := synth.Clustered(rng, n+200, dim, 20, 1)
	f := &inPlaceFixture{
		g: NewHNSW(dim, HNSWOptions{M: m, EfConstruction: 60, Quantize: quantize, TombstoneShare: -1,
			External: true, Rand: rand.New(rand.NewPCG(7, 8))}),
		rows: map[uint64][]float32{}, queries: synth.Clustered(rng, 60, dim, 20, 1),
		spare: synth.Matrix{Rows: 200, Dim: dim, Data: data.Data[n*dim:]},
	}
	for i := range n {
		row := slices.Clone(data.Row(i))
		if err := f.g.Add(uint64(i), row); err != nil {
			t.Fatal(err)
		}
		f.rows[uint64(i)] = row
	}
	for id := uint64(3); id < uint64(n); id += 7 {
		f.g.Delete(id)
		delete(f.rows, id)
	}
	if f.g.deleted == 0 || f.g.top < 2 || (f.g.codec != nil) != quantize {
		t.Fatalf("fixture with %d tombstones, top layer %d, codec %v: want tombstones, several layers, codec %v",
			f.g.deleted, f.g.top, f.g.codec != nil, quantize)
	}
	return f
}

// decoded returns the DecodeHNSWLinks copy of the fixture's graph.
func (f *inPlaceFixture) decoded(t testing.TB) *HNSW {
	t.Helper()
	var links bytes.Buffer
	if err := f.g.EncodeLinks(&links); err != nil {
		t.Fatal(err)
	}
	d, err := DecodeHNSWLinks(&links, func(id uint64) ([]float32, bool) {
		v, ok := f.rows[id]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rowOf gives the rows by node of a graph whose node ids are ids.
func (f *inPlaceFixture) rowOf(ids []uint64) func(int) []float32 {
	return func(node int) []float32 { return f.rows[ids[node]] }
}

// alignedCopy returns a copy of b at an 8-byte-aligned address, plus off
// bytes of offset (off > 0 misaligns it).
func alignedCopy(b []byte, off int) []byte {
	words := make([]uint64, (len(b)+off+7)/8+1)
	c := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 8*len(words))[off : off+len(b)]
	copy(c, b)
	return c
}

// inside reports whether s's first element lies in b's memory.
func inside[T any](s []T, b []byte) bool {
	if len(s) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(&s[0]))
	lo := uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p < lo+uintptr(len(b))
}

// sameNodeAnswers asserts that SearchNodes on b answers as on a, and as
// SearchEf and SearchFilter on a with the same filter by id.
func sameNodeAnswers(t *testing.T, stage string, a, b *HNSW, queries synth.Matrix) {
	t.Helper()
	ids := b.AppendNodeIDs(nil)
	for qi := range queries.Rows {
		q := queries.Row(qi)
		even := func(node uint32) bool { return ids[node]%2 == 0 }
		rare := func(node uint32) bool { return ids[node]%97 == 0 }
		for _, c := range []struct {
			name string
			got  []NodeResult
			same []NodeResult
			want []Result
		}{
			{"all ef 150", b.SearchNodes(q, 10, 150, nil), a.SearchNodes(q, 10, 150, nil), a.SearchEf(q, 10, 150)},
			{"all ef 10", b.SearchNodes(q, 10, 10, nil), a.SearchNodes(q, 10, 10, nil), a.SearchEf(q, 10, 10)},
			{"even", b.SearchNodes(q, 10, b.efS, even), a.SearchNodes(q, 10, a.efS, even),
				a.SearchFilter(q, 10, func(id uint64) bool { return id%2 == 0 })},
			{"rare", b.SearchNodes(q, 10, b.efS, rare), a.SearchNodes(q, 10, a.efS, rare),
				a.SearchFilter(q, 10, func(id uint64) bool { return id%97 == 0 })},
		} {
			if len(c.want) == 0 || !slices.Equal(c.got, c.same) || !equalResults(resultsOf(c.got), c.want) {
				t.Fatalf("%s: query %d, SearchNodes %s: got %v, the original's %v, want %v", stage, qi, c.name, c.got, c.same, c.want)
			}
			for _, r := range c.got {
				if ids[r.Node] != r.ID {
					t.Fatalf("%s: query %d, %s: node %d has id %d, the result says %d", stage, qi, c.name, r.Node, ids[r.Node], r.ID)
				}
			}
		}
	}
}

// TestHNSWInPlaceSameAnswers: a graph with tombstones and several layers
// (M 16 and a small M 3, with and without Int8 codes), written by
// AppendInPlace and opened over an 8-aligned copy, views the copy,
// answers every kind of search bit for bit as the original, writes the
// same form again, and builds no id map; over a misaligned copy it copies
// and answers the same.
func TestHNSWInPlaceSameAnswers(t *testing.T) {
	for _, c := range []struct {
		m        int
		quantize bool
	}{{16, false}, {3, false}, {16, true}} {
		f := newInPlaceFixture(t, 1500, 24, c.m, c.quantize)
		form := f.g.AppendInPlace([]byte("prefix"))[len("prefix"):]
		if err := VerifyHNSWInPlace(form); err != nil {
			t.Fatal(err)
		}
		ids := f.g.AppendNodeIDs(nil)
		for _, off := range []int{0, 1} {
			b := alignedCopy(form, off)
			h, err := OpenHNSWInPlace(b, f.rowOf(ids))
			if err != nil {
				t.Fatalf("M %d, offset %d: %v", c.m, off, err)
			}
			viewed := inside(h.nodes, b) && inside(h.ids, b) && inside(h.upper, b) && inside(h.dead, b) &&
				(h.codec == nil || inside(h.codes, b))
			if viewed != (off == 0) {
				t.Fatalf("M %d, offset %d: sections viewed %v", c.m, off, viewed)
			}
			if h.Len() != f.g.Len() || h.deleted != f.g.deleted || h.top != f.g.top || (h.codec != nil) != c.quantize {
				t.Fatalf("M %d: opened %d live, %d deleted, top %d; the original %d, %d, %d", c.m, h.Len(), h.deleted, h.top, f.g.Len(), f.g.deleted, f.g.top)
			}
			stage := "M " + string(rune('0'+c.m%10)) + " in place"
			sameAnswers(t, stage, f.g, h, f.queries)
			sameNodeAnswers(t, stage, f.g, h, f.queries)
			if again := h.AppendInPlace(nil); !bytes.Equal(again, form) {
				t.Fatalf("M %d: the opened graph writes another form", c.m)
			}
			if h.byID != nil || h.Damage() != nil {
				t.Fatalf("M %d: after searches, id map built %v, damage %v", c.m, h.byID != nil, h.Damage())
			}
			if !bytes.Equal(b, form) {
				t.Fatalf("M %d: searching changed the form", c.m)
			}
		}
	}
}

// TestHNSWInPlaceChanges: Add, Delete and Compact on a graph opened in
// place work, never write the form, leave the graph referring to nothing
// in it (the form is overwritten afterwards), and change the graph
// exactly as they change a DecodeHNSWLinks copy of the same graph.
func TestHNSWInPlaceChanges(t *testing.T) {
	f := newInPlaceFixture(t, 1500, 24, 5, false)
	d := f.decoded(t)
	form := f.g.AppendInPlace(nil)
	b := alignedCopy(form, 0)
	h, err := OpenHNSWInPlace(b, f.rowOf(f.g.AppendNodeIDs(nil)))
	if err != nil {
		t.Fatal(err)
	}
	// A Delete of an absent id copies nothing.
	if h.Delete(3) || h.ip == nil {
		t.Fatalf("deleting a deleted id: the graph was copied (%v)", h.ip == nil)
	}
	steps := []func(g *HNSW) error{
		func(g *HNSW) error { return g.Add(5000, f.spare.Row(0)) },
		func(g *HNSW) error { g.Delete(12); g.Delete(13); return nil },
		func(g *HNSW) error {
			var ids []uint64
			var vecs [][]float32
			for i := 1; i < 100; i++ {
				ids, vecs = append(ids, uint64(5000+i)), append(vecs, f.spare.Row(i))
			}
			return g.AddBatch(ids, vecs, 1)
		},
		func(g *HNSW) error { return g.Add(20, f.spare.Row(150)) }, // replaces id 20
		func(g *HNSW) error { g.Compact(); return nil },
		func(g *HNSW) error { return g.Add(6000, f.spare.Row(199)) },
	}
	for i, step := range steps {
		if err := step(d); err != nil {
			t.Fatal(err)
		}
		if err := step(h); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, form) {
			t.Fatalf("step %d wrote the form", i)
		}
		if i == 0 {
			// The graph owns its slices now: scribbling over the form
			// changes nothing.
			for j := range b {
				b[j] = 0xa5
			}
			form = b
		}
		sameAnswers(t, "after step "+string(rune('0'+i)), d, h, f.queries)
		sameNodeAnswers(t, "after step "+string(rune('0'+i)), d, h, f.queries)
	}
	if h.Len() != d.Len() || h.deleted != 0 {
		t.Fatalf("%d live and %d deleted after compaction, want %d and 0", h.Len(), h.deleted, d.Len())
	}
}

// TestHNSWInPlaceClone: a clone of a graph opened in place refers to
// nothing in the form: it answers as the graph did after the form is
// overwritten, and changes without touching it.
func TestHNSWInPlaceClone(t *testing.T) {
	f := newInPlaceFixture(t, 1500, 24, 6, true)
	form := f.g.AppendInPlace(nil)
	b := alignedCopy(form, 0)
	h, err := OpenHNSWInPlace(b, f.rowOf(f.g.AppendNodeIDs(nil)))
	if err != nil {
		t.Fatal(err)
	}
	c := h.Clone()
	if !bytes.Equal(b, form) || h.ip == nil {
		t.Fatal("Clone changed the form or made the original copy it")
	}
	for j := range b {
		b[j] = 0xa5
	}
	sameAnswers(t, "clone", f.g, c, f.queries)
	if err := c.Add(7000, f.spare.Row(3)); err != nil {
		t.Fatal(err)
	}
	if r := c.Search(f.spare.Row(3), 1); len(r) != 1 || r[0].ID != 7000 {
		t.Fatalf("the clone does not find what was added to it: %v", r)
	}
}

// TestHNSWInPlaceRowOf: a rowOf vector of the wrong length is an error
// naming the node, rowOf is called once for each live node and for no
// tombstone, and AppendInPlace refuses an owning graph.
func TestHNSWInPlaceRowOf(t *testing.T) {
	f := newInPlaceFixture(t, 300, 8, 4, false)
	ids := f.g.AppendNodeIDs(nil)
	form := alignedCopy(f.g.AppendInPlace(nil), 0)
	calls := map[int]int{}
	if _, err := OpenHNSWInPlace(form, func(node int) []float32 {
		calls[node]++
		return f.rows[ids[node]]
	}); err != nil {
		t.Fatal(err)
	}
	for node, id := range ids {
		_, live := f.rows[id]
		if want := map[bool]int{true: 1, false: 0}[live]; calls[node] != want {
			t.Fatalf("rowOf(%d) (id %d, live %v) called %d times", node, id, live, calls[node])
		}
	}
	_, err := OpenHNSWInPlace(form, func(node int) []float32 {
		if node == 5 {
			return make([]float32, 7)
		}
		return f.rows[ids[node]]
	})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("rowOf(5) gave 7 values")) {
		t.Fatalf("a short row: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("AppendInPlace of an owning graph did not panic")
		}
	}()
	NewHNSW(8, HNSWOptions{}).AppendInPlace(nil)
}

// TestHNSWInPlaceBadHeader: every header field out of range, a moved
// section, a wrong length and inconsistent levels, tombstones or entry
// are errors wrapping ErrFormat at open.
func TestHNSWInPlaceBadHeader(t *testing.T) {
	f := newInPlaceFixture(t, 300, 8, 4, false)
	ids := f.g.AppendNodeIDs(nil)
	form := f.g.AppendInPlace(nil)
	l := hnswFormCounts{n: uint64(len(ids)), u: uint64(len(f.g.upper)), t: uint64(f.g.deleted), dim: 8, stride: uint64(f.g.stride)}.layout()
	put := func(b []byte, i int, v uint64) {
		for j := range 8 {
			b[8*i+j] = byte(v >> (8 * j))
		}
	}
	firstLevel0 := slices.Index(f.g.level, 0)
	firstUpper := slices.IndexFunc(f.g.level, func(lv uint8) bool { return lv > 0 })
	firstLive := slices.IndexFunc(ids, func(id uint64) bool { _, ok := f.rows[id]; return ok })
	for name, damage := range map[string]func(b []byte) []byte{
		"magic":        func(b []byte) []byte { b[0] = 'x'; return b },
		"version":      func(b []byte) []byte { b[7] = 2; return b },
		"dim":          func(b []byte) []byte { put(b, 1, 0); return b },
		"M":            func(b []byte) []byte { put(b, 2, 1); return b },
		"efSearch":     func(b []byte) []byte { put(b, 4, 0); return b },
		"level mult":   func(b []byte) []byte { put(b, 5, 0); return b },
		"flags":        func(b []byte) []byte { put(b, 7, 4); return b },
		"node count":   func(b []byte) []byte { put(b, 8, 1<<40); return b },
		"entry":        func(b []byte) []byte { put(b, 9, uint64(len(ids))); return b },
		"top":          func(b []byte) []byte { put(b, 10, 40); return b },
		"top level":    func(b []byte) []byte { put(b, 10, uint64(f.g.top)); return b },
		"tombstones":   func(b []byte) []byte { put(b, 12, uint64(f.g.deleted+1)); return b },
		"codec":        func(b []byte) []byte { put(b, 13, 5); return b },
		"offset":       func(b []byte) []byte { put(b, hnswFormFields+hsUpper, l[hsUpper]+8); return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-1] },
		"longer":       func(b []byte) []byte { return append(b, 0, 0, 0, 0, 0, 0, 0, 0) },
		"level":        func(b []byte) []byte { b[l[hsLevel]+uint64(firstLevel0)] = 1; return b },
		"upper offset": func(b []byte) []byte { b[l[hsUpperOff]+4*uint64(firstUpper)]++; return b },
		"level 0 offset": func(b []byte) []byte {
			b[l[hsUpperOff]+4*uint64(firstLevel0)] = 1
			return b
		},
		"dead bit":  func(b []byte) []byte { b[l[hsDead]+uint64(firstLive)/8] |= 1 << (firstLive % 8); return b },
		"tail bits": func(b []byte) []byte { b[l[hsDead+1]-1] |= 0x80; return b },
		"tombstone list": func(b []byte) []byte {
			b[l[hsTombs]] ^= 1
			return b
		},
	} {
		b := alignedCopy(damage(slices.Clone(form)), 0)
		h, err := OpenHNSWInPlace(b, func(node int) []float32 {
			if node < len(ids) {
				if v, ok := f.rows[ids[node]]; ok {
					return v
				}
			}
			return make([]float32, 8)
		})
		if err == nil || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: opened (%v), error %v", name, h != nil, err)
		}
	}
	if err := VerifyHNSWInPlace(form); err != nil {
		t.Fatal(err)
	}
	damaged := slices.Clone(form)
	damaged[l[hsNodes]+40] ^= 1
	if err := VerifyHNSWInPlace(damaged); !errors.Is(err, ErrFormat) {
		t.Fatalf("a flipped bit: %v", err)
	}
}

// TestHNSWInPlaceDamagedLinks: links out of range (to a node past the
// last, to the node itself, to a node below the layer) and a count over
// the capacity open, never make a search panic, are reported by Damage
// once a search reaches them, still let every search return k results,
// and are cut from the lists the first change copies.
func TestHNSWInPlaceDamagedLinks(t *testing.T) {
	f := newInPlaceFixture(t, 600, 8, 4, false)
	ids := f.g.AppendNodeIDs(nil)
	form := f.g.AppendInPlace(nil)
	n := uint64(len(ids))
	l := hnswFormCounts{n: n, u: uint64(len(f.g.upper)), t: uint64(f.g.deleted), dim: 8, stride: uint64(f.g.stride)}.layout()
	entry := uint64(f.g.entry)
	topBlock := l[hsUpper] + 4*(uint64(f.g.upperOff[entry])+uint64(f.g.top-1)*uint64(1+f.g.m))
	level0 := slices.Index(f.g.level, 0)
	for name, damage := range map[string]func(b []byte){
		"past the last": func(b []byte) { put32(b, topBlock+4, uint32(n)) },
		"itself":        func(b []byte) { put32(b, topBlock+4, uint32(entry)) },
		"below layer":   func(b []byte) { put32(b, topBlock+4, uint32(level0)) },
		"count":         func(b []byte) { put32(b, topBlock, uint32(f.g.m+1)) },
		"every layer-0 list": func(b []byte) {
			for i := range n {
				put32(b, l[hsNodes]+4*(i*uint64(f.g.stride)+1), uint32(n+i))
			}
		},
	} {
		b := alignedCopy(form, 0)
		damage(b)
		h, err := OpenHNSWInPlace(b, f.rowOf(ids))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for qi := range f.queries.Rows {
			q := f.queries.Row(qi)
			if r := h.Search(q, 10); len(r) != 10 {
				t.Fatalf("%s: %d results", name, len(r))
			}
			h.SearchNodes(q, 10, 40, func(node uint32) bool { return node%2 == 0 })
		}
		if err := h.Damage(); !errors.Is(err, ErrFormat) {
			t.Fatalf("%s: damage %v", name, err)
		}
		c := h.Clone()
		if err := h.Add(9000, f.spare.Row(0)); err != nil {
			t.Fatal(err)
		}
		h.Compact()
		for _, g := range []*HNSW{h, c} {
			for i := range uint32(len(g.ids)) {
				if err := g.checkNode(i); err != nil {
					t.Fatalf("%s: after the copy: %v", name, err)
				}
			}
		}
		// The damage may cut the added node off the graph (a damaged
		// entry point has no links): an exhaustive search finds it.
		if r := h.SearchEf(f.spare.Row(0), 1, h.Len()); len(r) != 1 || r[0].ID != 9000 {
			t.Fatalf("%s: the damaged graph does not hold what was added: %v", name, r)
		}
		for qi := range f.queries.Rows {
			if r := h.Search(f.queries.Row(qi), 10); len(r) != 10 {
				t.Fatalf("%s: %d results after the change", name, len(r))
			}
		}
	}
}

func put32(b []byte, off uint64, v uint32) {
	for j := range 4 {
		b[off+uint64(j)] = byte(v >> (8 * j))
	}
}

// TestHNSWInPlaceEmpty: an empty External graph round-trips.
func TestHNSWInPlaceEmpty(t *testing.T) {
	g := NewHNSW(4, HNSWOptions{External: true})
	h, err := OpenHNSWInPlace(alignedCopy(g.AppendInPlace(nil), 0), func(int) []float32 { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 0 || h.Search([]float32{1, 0, 0, 0}, 3) != nil {
		t.Fatal("the empty graph is not empty")
	}
	if err := h.Add(1, []float32{1, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if r := h.Search([]float32{1, 0, 0, 0}, 3); len(r) != 1 || r[0].ID != 1 {
		t.Fatalf("after Add: %v", r)
	}
}
