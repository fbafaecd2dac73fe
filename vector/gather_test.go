package vector

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fonte-rag/fonte/synth"
)

// TestDotNodesMatchesDot: the gather kernels must give Dot's bits for
// every node, at every kernel level, for dimensions around the 16-lane
// chunks, node lists of every length around the groups of four, strides
// with padding between vectors, and a base that is not 64-byte aligned.
func TestDotNodesMatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, dim := range []int{1, 3, 15, 16, 17, 31, 64, 100, 384, 385} {
		for _, pad := range []int{0, 1, 13} {
			stride := dim + pad
			const nodes = 40
			buf := randVec(rng, nodes*stride+3, 0)
			vecs := buf[3:] // off 64-byte alignment
			q := randVec(rng, dim, 1)
			for n := 0; n <= 11; n++ {
				list := make([]uint32, n)
				for i := range list {
					list[i] = uint32(rng.IntN(nodes))
				}
				if n > 2 {
					list[1] = list[0]           // repeated nodes
					list[2] = uint32(nodes - 1) // the last vector, flush with the end
				}
				for _, lv := range levels() {
					restore := setLevel(lv)
					out := make([]float32, n+1)
					out[n] = -7
					dotNodes(q, vecs, stride, list, out[:n])
					for i, x := range list {
						want := Dot(q, vecs[int(x)*stride:int(x)*stride+dim])
						if math.Float32bits(out[i]) != math.Float32bits(want) {
							t.Fatalf("%s dim=%d stride=%d n=%d node %d: %v, Dot %v", levelName(lv), dim, stride, n, i, out[i], want)
						}
					}
					if out[n] != -7 {
						t.Fatalf("%s dim=%d n=%d: wrote past the output", levelName(lv), dim, n)
					}
					restore()
				}
			}
		}
	}
}

// TestDotRowsOfMatchesDot: the External index's batch scoring must give
// Dot's bits for every row, at every kernel level, for rows allocated one
// by one (scattered, unaligned) and rows that are windows of one buffer,
// dimensions around the 16-lane chunks, and node lists of every length
// around the groups of four.
func TestDotRowsOfMatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, dim := range []int{1, 3, 15, 16, 17, 31, 64, 100, 384, 385} {
		const nodes = 40
		rows := make([][]float32, nodes)
		shared := randVec(rng, nodes*dim+1, 0)
		for i := range rows {
			if i%2 == 0 {
				rows[i] = randVec(rng, dim+i%3, 0)[i%3:] // its own allocation, off alignment
			} else {
				rows[i] = shared[1+i*dim : 1+(i+1)*dim]
			}
		}
		q := randVec(rng, dim, 1)
		for n := 0; n <= 11; n++ {
			list := make([]uint32, n)
			for i := range list {
				list[i] = uint32(rng.IntN(nodes))
			}
			if n > 2 {
				list[1] = list[0]
				list[2] = nodes - 1
			}
			for _, lv := range levels() {
				restore := setLevel(lv)
				out := make([]float32, n+1)
				out[n] = -7
				dotRowsOf(q, rows, list, out[:n])
				for i, x := range list {
					if want := Dot(q, rows[x]); math.Float32bits(out[i]) != math.Float32bits(want) {
						t.Fatalf("%s dim=%d n=%d node %d: %v, Dot %v", levelName(lv), dim, n, i, out[i], want)
					}
				}
				if out[n] != -7 {
					t.Fatalf("%s dim=%d n=%d: wrote past the output", levelName(lv), dim, n)
				}
				restore()
			}
		}
	}
}

func TestDotRowsOfChecksBounds(t *testing.T) {
	for _, rows := range [][][]float32{{make([]float32, 8)}, {make([]float32, 8), make([]float32, 7)}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("node 1 of %d rows did not panic", len(rows))
				}
			}()
			dotRowsOf(make([]float32, 8), rows, []uint32{0, 1}, make([]float32, 2))
		}()
	}
}

func TestDotNodesChecksBounds(t *testing.T) {
	vecs := make([]float32, 3*8)
	defer func() {
		if recover() == nil {
			t.Fatal("a node past the vectors did not panic")
		}
	}()
	dotNodes(make([]float32, 8), vecs, 8, []uint32{0, 3}, make([]float32, 2))
}

// TestDotNodesInt8KernelsAgree: the int8 gather kernels must give the
// pure-Go kernel's integers exactly, for dimensions around the 8-code
// words and 64-byte lines, extreme codes and query values, and node lists
// of every length around the groups of four.
func TestDotNodesInt8KernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	for _, dim := range []int{1, 7, 8, 63, 64, 65, 100, 384, 385} {
		data := synth.Clustered(rng, 30, dim, 3, 1)
		c, err := FitInt8(data.Data, dim)
		if err != nil {
			t.Fatal(err)
		}
		w := c.codeWords()
		var codes []uint64
		for i := range data.Rows {
			v := data.Row(i)
			if i == 0 {
				for j := range v { // every code 127
					v[j] = c.lo[j] + c.step[j]*200
				}
			}
			codes = c.Encode(codes, v)
			for range w - c.CodeLen() {
				codes = append(codes, 0)
			}
		}
		queries := [][]float32{randVec(rng, dim, 0), data.Row(1)}
		extreme := make([]float32, dim)
		for j := range extreme {
			extreme[j] = float32(1 - 2*(j%2)) // r_j at ±63
		}
		queries = append(queries, extreme)
		for _, qv := range queries {
			q := c.NewQuery(qv)
			for n := 0; n <= 11; n++ {
				nodes := make([]uint32, n)
				for i := range nodes {
					nodes[i] = uint32(rng.IntN(data.Rows))
				}
				if n > 0 {
					nodes[0] = 0
				}
				want := make([]int32, n)
				dotNodesInt8Generic(q, codes, w, nodes, want)
				for i, x := range nodes {
					code := codes[int(x)*w : int(x)*w+c.CodeLen()]
					if d, s := dotInt8(q.even, q.odd, code); int64(want[i]) != int64(d)-64*int64(s) {
						t.Fatalf("dim=%d: generic gather %d, dotInt8 %d", dim, want[i], int64(d)-64*int64(s))
					}
					if got := q.scoreD(int64(want[i])); got != q.Score(code) {
						t.Fatalf("dim=%d: scoreD %v, Score %v", dim, got, q.Score(code))
					}
				}
				for _, lv := range int8Levels() {
					out := make([]int32, n+1)
					out[n] = -7
					withInt8Level(lv, func() { dotNodesInt8(q, codes, w, nodes, out[:n]) })
					for i := range n {
						if out[i] != want[i] {
							t.Fatalf("%s dim=%d n=%d node %d: %d, want %d", lv.name, dim, n, i, out[i], want[i])
						}
					}
					if out[n] != -7 {
						t.Fatalf("%s dim=%d n=%d: wrote past the output", lv.name, dim, n)
					}
				}
			}
		}
	}
}
