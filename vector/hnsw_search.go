package vector

import (
	"slices"
)

// This file holds search: the greedy descent, the layer search, the
// filtered search and the exact fallback.

// querier scores nodes against one query, on float32 vectors or on codes.
type querier struct {
	q  []float32
	q8 *Int8Query // nil: score with float32
}

func (h *HNSW) score(qr *querier, n uint32) float32 {
	if qr.q8 != nil {
		i := int(n) * h.codeW
		cl := len(qr.q8.even)
		d, s := dotInt8(qr.q8.even, qr.q8.odd, h.codes[i:i+cl:i+cl])
		return qr.q8.score(d, s)
	}
	return Dot(qr.q, h.vec(n))
}

// greedy walks layer l from ep to a local maximum of the score, moving to
// the best neighbour each step (the upper-layer search, ef = 1).
func (h *HNSW) greedy(sc *hnswScratch, qr *querier, ep scored, l int) scored {
	for changed := true; changed; {
		changed = false
		for _, nb := range sc.links(h, ep.n, l) {
			if s := h.score(qr, nb); s > ep.s {
				ep, changed = scored{s, nb}, true
			}
		}
	}
	return ep
}

// searchLayer is the paper's SEARCH-LAYER (Algorithm 2): a best-first
// search of layer l from the entry points, keeping the ef best nodes
// accepted as results in sc.res. Deleted nodes, and with accept nodes it
// rejects, are expanded like any other (they keep the graph connected) but
// never enter the results. budget > 0 caps the distances computed; the
// search reports false when it hit the cap. The caller has started a
// visited generation.
func (h *HNSW) searchLayer(sc *hnswScratch, qr *querier, entries []scored, ef, l int, accept func(uint32) bool, budget int) bool {
	cand, res := sc.cand[:0], sc.res[:0]
	for _, e := range entries {
		if !sc.visit(e.n) {
			continue
		}
		cand = pushMax(cand, e)
		if h.accept(e.n, accept) {
			if len(res) < ef {
				res = pushMin(res, e)
			} else if e.s > res[0].s {
				replaceMin(res, e)
			}
		}
	}
	ok := true
	computed := 0
	for len(cand) > 0 {
		var c scored
		c, cand = popMax(cand)
		if len(res) >= ef && c.s < res[0].s {
			break // the best candidate left cannot improve the results
		}
		if budget > 0 && computed > budget {
			ok = false
			break
		}
		// Gather the unvisited neighbours and score them in one call:
		// the kernels request every vector (or code) before scoring, so
		// the cache misses overlap instead of being paid one at a time.
		batch := sc.batch[:0]
		for _, nb := range sc.links(h, c.n, l) {
			if sc.visit(nb) {
				batch = append(batch, nb)
			}
		}
		sc.batch = batch
		computed += len(batch)
		if sc.yieldDist > 0 { // a build's search (see hnswScratch.yieldDist)
			sc.dists += len(batch)
			sc.maybeYield()
		}
		scores := h.scoreBatch(sc, qr, batch)
		for i, nb := range batch {
			s := scores[i]
			if len(res) < ef || s > res[0].s {
				cand = pushMax(cand, scored{s, nb})
				if h.accept(nb, accept) {
					if len(res) < ef {
						res = pushMin(res, scored{s, nb})
					} else {
						replaceMin(res, scored{s, nb})
					}
				}
			}
		}
		if l == 0 && len(cand) > 0 {
			// The next node to expand is likely the best candidate
			// now: its links are requested while this one's are used.
			prefetchNode(h.nodes[h.linkOff:], h.stride, cand[0].n, 1+h.m0)
		}
	}
	sc.cand, sc.res = cand, res
	return ok
}

// scoreBatch scores the nodes of batch against the query in one call
// (see searchLayer), into sc.scores.
func (h *HNSW) scoreBatch(sc *hnswScratch, qr *querier, batch []uint32) []float32 {
	scores := sc.scores
	if cap(scores) < len(batch) {
		scores = make([]float32, len(batch), 2*len(batch))
		sc.scores = scores
	}
	scores = scores[:len(batch)]
	if qr.q8 == nil {
		h.dotNodes(qr.q, batch, scores)
		return scores
	}
	d := sc.d32
	if cap(d) < len(batch) {
		d = make([]int32, len(batch), 2*len(batch))
		sc.d32 = d
	}
	d = d[:len(batch)]
	dotNodesInt8(qr.q8, h.codes, h.codeW, batch, d)
	for i, x := range d {
		scores[i] = qr.q8.scoreD(int64(x))
	}
	return scores
}

// accept reports whether node n may be a result: live, and accepted.
func (h *HNSW) accept(n uint32, accept func(uint32) bool) bool {
	return !h.isDead(n) && (accept == nil || accept(n))
}

func (h *HNSW) checkQuery(q []float32) {
	if len(q) != h.dim {
		panic(&DimensionError{Want: h.dim, Got: len(q)})
	}
}

// Search returns about the k stored vectors with the highest inner product
// with q, best first, ties broken by ascending id, searching with the
// index's EfSearch. It returns fewer than k results only when the index
// holds fewer, and nil when k < 1. Search panics if len(q) is not the
// index's dimension, as Flat.Search does.
func (h *HNSW) Search(q []float32, k int) []Result {
	return h.SearchEf(q, k, h.efS)
}

// SearchEf is Search with a candidate list of ef (at least k) instead of
// EfSearch: larger is slower and finds more of the true top k.
func (h *HNSW) SearchEf(q []float32, k, ef int) []Result {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	return resultsOf(h.search(q, k, ef, nil))
}

// SearchFilter is Search restricted to the vectors whose id allow accepts;
// a nil allow accepts every id. The filter is applied inside the search,
// so it returns k results whenever k allowed vectors exist:
//
//   - The filter is first tried on 256 nodes spread over the index to
//     estimate how many vectors it allows. When that is at most 32·EfSearch
//     vectors, an exact scan (allow on every id, a distance for each
//     allowed one) costs less than a graph search and is used: results are
//     then exactly Flat.SearchFilter's.
//   - Otherwise the graph is searched with every node routing but only
//     allowed ones kept as results, which widens the search by itself: it
//     runs until it holds EfSearch allowed candidates. If the filter is far
//     more selective near q than the sample said, and the search computes
//     more distances than half the index, it falls back to the exact scan,
//     as it does when it ends with fewer than k results.
//
// allow is called from the searching goroutine, with the index's read
// lock held: it must not call the index's write methods.
func (h *HNSW) SearchFilter(q []float32, k int, allow func(id uint64) bool) []Result {
	h.checkQuery(q)
	h.mu.RLock()
	defer h.mu.RUnlock()
	return resultsOf(h.search(q, k, h.efS, h.byIDFilter(allow)))
}

// byIDFilter turns a filter on ids into one on nodes.
func (h *HNSW) byIDFilter(allow func(uint64) bool) func(uint32) bool {
	if allow == nil {
		return nil
	}
	return func(n uint32) bool { return allow(h.ids[n]) }
}

// search runs a query, with results as nodes; the caller holds the read
// lock.
func (h *HNSW) search(q []float32, k, ef int, accept func(uint32) bool) []NodeResult {
	if k < 1 || h.live == 0 {
		return nil
	}
	ef = max(ef, k)
	if h.live <= ef {
		return h.exact(q, k, accept) // the graph search would visit everything anyway
	}
	budget := 0
	if accept != nil {
		if h.allowedEstimate(accept) <= exactFilterFactor*float64(ef) {
			return h.exact(q, k, accept)
		}
		budget = h.live / 2
	}
	sc := h.getScratch()
	defer h.scratch.Put(sc)
	qr, ep := h.descend(sc, q)
	sc.newGen(len(h.ids))
	sc.w = append(sc.w[:0], ep)
	if !h.searchLayer(sc, qr, sc.w, ef, 0, accept, budget) {
		return h.exact(q, k, accept)
	}
	kk := min(k, h.live)
	t := h.rerank(sc, qr, kk)
	if len(t.h) < kk {
		// Tombstones or the filter cut the graph's reach; rare, and the
		// contract is k results whenever k exist.
		return h.exact(q, k, accept)
	}
	return t.sorted()
}

// descend prepares the query and walks the upper layers greedily from the
// entry point: the layer-0 entry of a search.
func (h *HNSW) descend(sc *hnswScratch, q []float32) (*querier, scored) {
	qr := &querier{q: q}
	if h.codec != nil {
		h.codec.prepare(&sc.q8, q)
		qr.q8 = &sc.q8
	}
	ep := scored{h.score(qr, h.entry), h.entry}
	for l := h.top; l > 0; l-- {
		ep = h.greedy(sc, qr, ep, l)
	}
	return qr, ep
}

// rerank returns the best kk of the results in sc.res, scored on float32:
// a quantized search re-scores only its best candidates by their codes'
// scores.
func (h *HNSW) rerank(sc *hnswScratch, qr *querier, kk int) nodeTopK {
	t := newNodeTopK(kk)
	if qr.q8 != nil {
		// Re-rank on float32, the vectors fetched as in the search, but
		// only the best candidates by their codes' scores: an External
		// index's rows are random reads of mapped memory, and reading all
		// ef of them would cost a large ef's walk most of its gain.
		if r := rerankWindow(kk); len(sc.res) > r {
			slices.SortFunc(sc.res, byScore)
			sc.res = sc.res[:r]
		}
		sc.batch = sc.batch[:0]
		for _, r := range sc.res {
			sc.batch = append(sc.batch, r.n)
		}
		sc.scores = slices.Grow(sc.scores[:0], len(sc.batch))[:len(sc.batch)]
		h.dotNodes(qr.q, sc.batch, sc.scores)
		for i := range sc.res {
			sc.res[i].s = sc.scores[i]
		}
	}
	for _, r := range sc.res {
		t.push(NodeResult{Node: r.n, ID: h.ids[r.n], Score: r.s})
	}
	return t
}

// allowedEstimate estimates how many live nodes accept accepts from a
// sample of nodes evenly spread over the index.
func (h *HNSW) allowedEstimate(accept func(uint32) bool) float64 {
	step := max(1, len(h.ids)/filterSample)
	seen, ok := 0, 0
	for n := 0; n < len(h.ids); n += step {
		if h.isDead(uint32(n)) {
			continue
		}
		seen++
		if accept(uint32(n)) {
			ok++
		}
	}
	if seen == 0 {
		return 0
	}
	return float64(ok) / float64(seen) * float64(h.live)
}

// exact is a Flat-style scan of the live (and accepted) vectors.
func (h *HNSW) exact(q []float32, k int, accept func(uint32) bool) []NodeResult {
	kk := min(k, h.live)
	t := newNodeTopK(kk)
	for n, id := range h.ids {
		if !h.accept(uint32(n), accept) {
			continue
		}
		s := Dot(q, h.vec(uint32(n)))
		if t.full() {
			root := t.h[0]
			if s < root.Score || (s == root.Score && id > root.ID) {
				continue
			}
		}
		t.push(NodeResult{Node: uint32(n), ID: id, Score: s})
	}
	if len(t.h) == 0 {
		return nil
	}
	return t.sorted()
}

// rerankWindow is how many of a quantized search's best candidates, by
// their codes' scores, are re-ranked on float32 for k results: twice k,
// at least 16. On 5,000 clustered 384-d vectors (one synth topic), the
// hardest case, re-ranking 2k lost no recall@10 against re-ranking all
// ef candidates at ef 100 to 800; re-ranking k alone lost up to 0.05.
func rerankWindow(k int) int { return max(2*k, 16) }
