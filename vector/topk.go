package vector

// Result is one search hit: the id given to Add and the inner product of
// its vector with the query.
type Result struct {
	ID    uint64
	Score float32
}

// before reports whether a ranks ahead of b: higher score first, then lower
// id, which makes every ranking a total order.
func before(a, b Result) bool {
	return a.Score > b.Score || (a.Score == b.Score && a.ID < b.ID)
}

// topK keeps the k best results seen so far in a binary heap whose root is
// the worst one kept, so a candidate is rejected with one comparison and
// accepted in O(log k): no score list of size n is ever built or sorted.
// The heap lives in the result slice itself, so a search allocates only
// what it returns.
type topK struct {
	h []Result
	k int
}

func newTopK(k int, buf []Result) topK {
	return topK{h: buf[:0], k: k}
}

// full reports whether k results are kept; from then on only a candidate
// that beats the root gets in.
func (t *topK) full() bool { return len(t.h) == t.k }

// push offers a candidate.
func (t *topK) push(r Result) {
	if len(t.h) < t.k {
		t.h = append(t.h, r)
		t.up(len(t.h) - 1)
		return
	}
	if !before(r, t.h[0]) {
		return
	}
	t.h[0] = r
	t.down(0, len(t.h))
}

// worse reports whether the heap element i ranks behind element j: the
// heap order is "worst on top".
func (t *topK) worse(i, j int) bool { return before(t.h[j], t.h[i]) }

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.worse(i, p) {
			return
		}
		t.h[i], t.h[p] = t.h[p], t.h[i]
		i = p
	}
}

func (t *topK) down(i, n int) {
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && t.worse(r, c) {
			c = r
		}
		if !t.worse(c, i) {
			return
		}
		t.h[i], t.h[c] = t.h[c], t.h[i]
		i = c
	}
}

// sorted heap-sorts the kept results in place, best first, and returns
// them. The heap is unusable afterwards.
func (t *topK) sorted() []Result {
	for n := len(t.h) - 1; n > 0; n-- {
		// Moving the worst to the end leaves the best at the front.
		t.h[0], t.h[n] = t.h[n], t.h[0]
		t.down(0, n)
	}
	return t.h
}
