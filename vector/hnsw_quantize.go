package vector

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
