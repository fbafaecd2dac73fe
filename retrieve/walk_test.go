package retrieve

import (
	"math/bits"
	"testing"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/vector"
)

// TestWalkReturnsReadableChunksOnly: a restricted reader who may read a
// quarter, a half or three quarters of a graph's chunks (scattered chunk
// by chunk) walks the graph over the nodes of its chunks alone; every
// dense hit is a chunk it may read, with the exact inner product as its
// score, and the hits hold nearly all of the exact filtered top 10.
func TestWalkReturnsReadableChunksOnly(t *testing.T) {
	defer func(m int) { walkMinChunks = m }(walkMinChunks)
	walkMinChunks = 500 // this corpus's readers walk as a million chunks' do
	const n = 4000
	c := labelled(idsUpTo(n))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseExact})
	if err != nil {
		t.Fatal(err)
	}
	rows := c.rows()
	for _, held := range [][]string{nil, {"hr"}, {"hr", "finance"}} {
		f := Filter{Restricted: true, Labels: held}
		readable := func(p int) bool {
			l := classLabels[p%len(classLabels)]
			return l == "" || (fonte.Filter{Restricted: true, Labels: held}).Readable([]string{fonte.AccessTag(l)})
		}
		_, rv := ix.accessView(f)
		leg, _ := ix.denseLegFor(f, rv)
		w, ok := leg.(walkLeg)
		if !ok {
			t.Fatalf("reader %v: dense leg %T, want the walk", held, leg)
		}
		if got, want := setSize(w.set), n/len(classLabels)*(1+len(held)); got != want {
			t.Fatalf("reader %v: the walk's set holds %d nodes, want the %d chunks it may read", held, got, want)
		}
		found := 0
		const queries = 50
		for i := range queries {
			q := labelled([]int{50_000 + i}).Vectors
			got, want := ix.VectorTopK(q, 10, f), exact.VectorTopK(q, 10, f)
			if len(got) != 10 {
				t.Fatalf("reader %v, query %d: %d hits", held, i, len(got))
			}
			for _, h := range got {
				if !readable(h.Pos) {
					t.Fatalf("reader %v, query %d: chunk %d, which it may not read", held, i, h.Pos)
				}
				if s := float64(vector.Dot(q, rows[h.Pos])); h.Score != s {
					t.Fatalf("reader %v, query %d: chunk %d scored %v, its inner product is %v", held, i, h.Pos, h.Score, s)
				}
			}
			for _, h := range want {
				for _, g := range got {
					if g.Pos == h.Pos {
						found++
					}
				}
			}
		}
		if r := float64(found) / (10 * queries); r < 0.95 {
			t.Errorf("reader %v: recall@10 %.3f against the exact filtered search, want ≥ 0.95", held, r)
		}
	}
}

// TestWalkChoice: a reader under walkMinShare of the chunks, or under
// walkMinChunks, scans its classes exactly, as does one whose filter
// names documents too (the walk's set holds the readable chunks alone).
func TestWalkChoice(t *testing.T) {
	defer func(m int, s float64) { walkMinChunks, walkMinShare = m, s }(walkMinChunks, walkMinShare)
	c := labelled(idsUpTo(4000))
	ix, err := NewWith(c, DefaultAnalyzers(), Options{Dense: DenseHNSW, Keys: keysOf(c)})
	if err != nil {
		t.Fatal(err)
	}
	hr := Filter{Restricted: true, Labels: []string{"hr"}} // 2,000 chunks, a half
	for _, tc := range []struct {
		name      string
		f         Filter
		min       int
		share     float64
		wantWalks bool
	}{
		{"a half, over both thresholds", hr, 2000, 0.5, true},
		{"fewer chunks than walkMinChunks", hr, 2001, 0.5, false},
		{"a share under walkMinShare", hr, 2000, 0.51, false},
		{"a filter on documents", Filter{Restricted: true, Labels: []string{"hr"}, Prefixes: []string{"doc0"}}, 2000, 0.5, false},
	} {
		walkMinChunks, walkMinShare = tc.min, tc.share
		_, rv := ix.accessView(tc.f)
		leg, _ := ix.denseLegFor(tc.f, rv)
		if _, walks := leg.(walkLeg); walks != tc.wantWalks {
			t.Errorf("%s: dense leg %T", tc.name, leg)
		}
	}
}

// TestWalkStepsByShare: the walk's expansions depend on the reader's
// share of the corpus rounded down to a power of two, and double as it
// halves.
func TestWalkStepsByShare(t *testing.T) {
	for _, tc := range []struct {
		share float64
		want  int
	}{{1, 200}, {0.5, 200}, {0.49, 400}, {0.25, 400}, {0.2, 800}, {0.0625, 1600}} {
		if got := walkSteps(100, tc.share); got != tc.want/2*walkStepsPerEf {
			t.Errorf("share %v: %d steps, want %d", tc.share, got, tc.want/2*walkStepsPerEf)
		}
	}
}

// setSize is how many nodes s holds.
func setSize(s vector.NodeSet) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
