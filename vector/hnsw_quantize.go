package vector

import "github.com/fonte-rag/fonte/internal/piecewise"

// This file holds the Int8 codes of a Quantize index: when the codec
// is fitted, and the codes kept beside the nodes.

// maybeFit fits or refits the Int8 codec of a Quantize index when it has
// reached quantizeMin nodes or doubled since the last fit: refitting is
// linear in the index size, so doubling keeps its cost per Add constant.
func (h *HNSW) maybeFit() {
	if !h.quantize || len(h.ids) < quantizeMin || len(h.ids) < 2*h.fitAt {
		return
	}
	h.fit()
}

// fit fits the codec on the current vectors and encodes all of them.
func (h *HNSW) fit() { h.fitPrefix(len(h.ids)) }

// fitPrefix fits the codec on the vectors of the first n nodes and
// encodes all of them.
func (h *HNSW) fitPrefix(n int) {
	if n == 0 {
		return // nothing to fit
	}
	h.codec = fitInt8(n, h.dim, func(i int) []float32 { return h.vec(uint32(i)) })
	h.fitAt = n
	h.encodeAll()
}

func (h *HNSW) encodeAll() {
	h.codeW = h.codec.codeWords()
	h.dropSharedCodes(cap(h.ids) * h.codeW)
	if cap(h.codes) < len(h.ids)*h.codeW {
		h.codes = make([]uint64, 0, cap(h.ids)*h.codeW)
	}
	h.codes = h.codes[:0]
	for n := range h.ids {
		h.appendCode(h.vec(uint32(n)))
	}
}

// appendCode appends the code of v, padded to codeW words.
func (h *HNSW) appendCode(v []float32) {
	h.codes = h.codec.Encode(h.codes, v)
	for range h.codeW - h.codec.CodeLen() {
		h.codes = append(h.codes, 0)
	}
}

// HasCodes reports whether searches walk the graph on Int8 codes: a
// Quantize index whose codec is fitted (from 1,000 vectors on).
func (h *HNSW) HasCodes() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.codec != nil
}

// LoadCodes copies the Int8 codes of a graph opened in place from its
// form (a mapped file) to the heap, in one sequential pass, and reports
// the bytes copied. A search reads a code for every node it scores, at
// random: from the mapping, each first touch of a page is a page fault,
// and the page cache may drop the pages under memory pressure, so the
// walk's time varied from run to run; from the heap it does not. The
// codes are a quarter of the float32 rows (384 MB at a million 384-d
// vectors). Other graphs' codes are on the heap already.
func (h *HNSW) LoadCodes() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ip == nil || h.ip.codesLoaded || len(h.codes) == 0 {
		return 0
	}
	h.codes = piecewise.Clone(h.codes)
	h.ip.codesLoaded = true
	return 8 * len(h.codes)
}
