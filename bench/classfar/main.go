// Command classfar shows why a restricted reader's class graphs lose
// recall (issue 24, item 2) on an index fonte-scale built with the class
// graphs on (FONTE_CLASS_GRAPH_MIN=10000 fonte-scale -phase build ...
// -filters 50,10,1,0.1). For each reader it prints, per class graph the
// reader may read, the graph's recall@10 against that class's exact top
// 10, split by whether the query's topic has chunks in the class, and the
// reader's recall over all its classes, split by whether it may read the
// query's topic at all, with the best score of the walks and of the exact
// search; then the recall and the share of queries scanned of the far
// rule (retrieve/classnear.go) for a grid of its constants. It reads the
// index and writes nothing.
//
//	cd bench && go run ./classfar -dir /work/tmp-classgraph/idx300 -seed 2
package main

import (
	"container/heap"
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/disk"
	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/synth"
	"github.com/fonte-rag/fonte/vector"
)

// hit is a chunk number and its score.
type hit struct {
	pos   int
	score float32
}

// minHeap keeps the best hits, the worst on top.
type minHeap []hit

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(hit)) }
func (h *minHeap) Pop() any {
	o := *h
	x := o[len(o)-1]
	*h = o[:len(o)-1]
	return x
}

// exactTop returns the k rows of cand scoring highest with q, best first.
func exactTop(q []float32, rows [][]float32, cand []int, k int) []hit {
	h := &minHeap{}
	for _, p := range cand {
		s := vector.Dot(q, rows[p])
		if h.Len() < k {
			heap.Push(h, hit{p, s})
		} else if s > (*h)[0].score {
			(*h)[0] = hit{p, s}
			heap.Fix(h, 0)
		}
	}
	out := []hit(*h)
	sort.Slice(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// ratio is found over want, or 1 with nothing wanted.
func ratio(found, want int) float64 {
	if want == 0 {
		return 1
	}
	return float64(found) / float64(want)
}

// quantiles describes x.
func quantiles(x []float64) string {
	if len(x) == 0 {
		return "-"
	}
	sort.Float64s(x)
	return fmt.Sprintf("min %.3f p10 %.3f p50 %.3f max %.3f", x[0], x[len(x)/10], x[len(x)/2], x[len(x)-1])
}

func main() {
	dir := flag.String("dir", "", "index folder (fonte-scale -phase build, class graphs on)")
	seed := flag.Uint64("seed", 2, "the index's corpus seed")
	nq := flag.Int("queries", 100, "queries (fonte-scale's, of the seed)")
	readers := flag.String("readers", "folder-50,folder-10,random-50,random-10", "readers' labels")
	ef := flag.Int("ef", retrieve.ClassEfSearch, "candidate list of the class graphs' walks")
	flag.Parse()
	retrieve.ClassGraphMinChunks = 10_000
	ctx := context.Background()
	corpus := func() *synth.Corpus { return synth.NewCorpus(rand.New(rand.NewPCG(*seed, 1)), synth.CorpusOptions{}) }
	emb := corpus().Embedder()
	e, err := engine.Open(ctx, engine.Settings{IndexDir: *dir, Embedder: emb}, engine.OpenOptions{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer e.Close()
	v, err := e.Store().(*disk.Store).View()
	if err != nil {
		log.Fatal(err)
	}
	rows, n := v.Snap.Rows(), v.Snap.NumChunks()
	graphs, err := v.Index.ClassGraphs()
	if err != nil {
		log.Fatal(err)
	}
	access, topic := make([][]string, n), make([]int, n)
	for i := range n {
		for _, t := range v.Snap.Tags(i) {
			if l, ok := strings.CutPrefix(t, fonte.AccessTagPrefix); ok {
				access[i] = append(access[i], l)
			}
		}
		fmt.Sscanf(v.Snap.Chunk(i).ID, "t%03d", &topic[i]) // fonte-scale's ids: t<topic>/doc<n>
	}
	// Each class graph's chunks, topics and nearest-neighbour scores
	// (exact, over 100 sampled chunks).
	members := make([][]int, len(graphs))
	topics := make([]map[int]bool, len(graphs))
	nn := make([][]float64, len(graphs))
	rng := rand.New(rand.NewPCG(9, 9))
	for g, cg := range graphs {
		topics[g] = map[int]bool{}
		for _, p := range cg.Positions {
			if int(p) < n {
				members[g] = append(members[g], int(p))
				topics[g][topic[p]] = true
			}
		}
		for range 100 {
			p := members[g][rng.IntN(len(members[g]))]
			nn[g] = append(nn[g], float64(exactTop(rows[p], rows, members[g], 2)[1].score))
		}
		sort.Float64s(nn[g])
		fmt.Printf("graph %d %v: %d chunks, %d topics, nearest-neighbour score p1 %.3f p5 %.3f p50 %.3f\n",
			g, cg.Labels, len(members[g]), len(topics[g]), nn[g][1], nn[g][5], nn[g][50])
	}
	qc := corpus()
	for range 1000 {
		qc.Chunk() // fonte-scale's queryTexts
	}
	texts, qtopic := make([]string, *nq), make([]int, *nq)
	for i := range texts {
		qtopic[i], texts[i], _ = qc.Query()
	}
	qv, err := emb.Embed(ctx, texts)
	if err != nil {
		log.Fatal(err)
	}
	for _, label := range strings.Split(*readers, ",") {
		report(label, graphs, members, topics, nn, access, topic, rows, qv, qtopic, *ef)
	}
	runtime.KeepAlive(v)
}

// report prints one reader's figures.
func report(label string, graphs []retrieve.ClassGraph, members [][]int, topics []map[int]bool, nn [][]float64,
	access [][]string, topic []int, rows [][]float32, qv [][]float32, qtopic []int, ef int) {
	var readable, small []int
	var readGraphs []int
	inGraph := map[int]bool{}
	for g, cg := range graphs {
		if slices.Contains(cg.Labels, fonte.AccessTagPrefix+label) {
			readGraphs = append(readGraphs, g)
			for _, p := range members[g] {
				inGraph[p] = true
			}
		}
	}
	readTopics := map[int]bool{}
	for i := range rows {
		if slices.Contains(access[i], label) {
			readable = append(readable, i)
			readTopics[topic[i]] = true
			if !inGraph[i] {
				small = append(small, i)
			}
		}
	}
	fmt.Printf("\nreader %s: %d readable chunks, class graphs %v\n", label, len(readable), readGraphs)
	type count struct{ found, want int }
	perClass := map[string]*count{}
	var byTopic [2]count
	var walkBest, trueBest [2][]float64
	type rule struct {
		quantile int
		factor   float64
		rank     int
	}
	var rules []rule
	for _, qt := range []int{1, 5} {
		for _, f := range []float64{0.8, 0.9, 1.0} {
			for _, r := range []int{1, 10} {
				rules = append(rules, rule{qt, f, r})
			}
		}
	}
	ruleCount := make([]count, len(rules))
	ruleScanned := make([]int, len(rules))
	for qi, q := range qv {
		truth := exactTop(q, rows, readable, 10)
		var merged []hit
		got := map[int]bool{}
		best := float32(-1)
		for _, g := range readGraphs {
			for _, r := range graphs[g].Graph.SearchNodes(q, 10, ef, nil) {
				p := int(graphs[g].Positions[r.Node])
				got[p] = true
				merged = append(merged, hit{p, r.Score})
				best = max(best, r.Score)
			}
			in := topics[g][qtopic[qi]]
			c := perClass[fmt.Sprintf("graph %d, query topic in class %v", g, in)]
			if c == nil {
				c = &count{}
				perClass[fmt.Sprintf("graph %d, query topic in class %v", g, in)] = c
			}
			for _, h := range exactTop(q, rows, members[g], 10) {
				c.want++
				if got[h.pos] {
					c.found++
				}
			}
		}
		merged = append(merged, exactTop(q, rows, small, 10)...)
		sort.Slice(merged, func(i, j int) bool { return merged[i].score > merged[j].score })
		merged = merged[:min(10, len(merged))]
		side := 0
		if !readTopics[qtopic[qi]] {
			side = 1
		}
		walkBest[side] = append(walkBest[side], float64(best))
		trueBest[side] = append(trueBest[side], float64(truth[0].score))
		for _, h := range truth {
			byTopic[side].want++
			if got[h.pos] || !inGraph[h.pos] {
				byTopic[side].found++
			}
		}
		for ri, r := range rules {
			near := 9.0
			for _, g := range readGraphs {
				near = min(near, r.factor*nn[g][r.quantile])
			}
			scan := len(readGraphs) > 0 && (len(merged) < r.rank || float64(merged[r.rank-1].score) < near)
			if scan {
				ruleScanned[ri]++
			}
			for _, h := range truth {
				ruleCount[ri].want++
				if scan || slices.ContainsFunc(merged, func(m hit) bool { return m.pos == h.pos }) {
					ruleCount[ri].found++
				}
			}
		}
	}
	keys := make([]string, 0, len(perClass))
	for k := range perClass {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  %s: recall@10 of the class's own top 10 %.3f (%d queries)\n", k, ratio(perClass[k].found, perClass[k].want), perClass[k].want/10)
	}
	for side, name := range []string{"readable", "hidden"} {
		fmt.Printf("  query topic %s: %d queries, reader recall@10 %.3f; best walk hit %s; best exact hit %s\n",
			name, byTopic[side].want/10, ratio(byTopic[side].found, byTopic[side].want), quantiles(walkBest[side]), quantiles(trueBest[side]))
	}
	for ri, r := range rules {
		fmt.Printf("  far rule: hit %2d below %.1f × p%d of nearest-neighbour scores: recall@10 %.3f, %d queries scanned\n",
			r.rank, r.factor, r.quantile, ratio(ruleCount[ri].found, ruleCount[ri].want), ruleScanned[ri])
	}
}
