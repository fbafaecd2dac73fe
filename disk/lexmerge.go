package disk

import (
	"github.com/fonte-rag/fonte/chunk"
	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/retrieve"
)

// A write changes few chunks of a large store, so a writer's lexical
// index of the new generation is built from the previous view's (see
// lexical.InPlaceBuilder.Reuse): the chunks whose analysed text is
// unchanged keep their postings, renumbered, and only the others are
// analysed. The index is byte for byte the one built from every chunk.

// lexicalReuse says which of snap's chunks the lexical model old, built
// over the chunks of prev, already holds: for chunk i of snap, the number
// of prev's chunk with the same analysed text, or -1. A chunk of a segment
// both generations hold is that segment's chunk in prev (segment files
// are immutable); a chunk of another segment is the chunk at the same
// position of prev's document with the same ID, when the two have the same
// language and enriched text (the input of retrieve.Analyzers.Terms). It
// returns nil, and why, when old cannot be reused.
func lexicalReuse(prev *View, snap *Snapshot) ([]int32, string) {
	if prev == nil {
		return nil, "no previous view"
	}
	old := prev.Index.BM25()
	switch {
	case prev.Snap.storeID != snap.storeID || prev.Snap.Config() != snap.Config():
		return nil, "the previous view is of another index (a rebuild)"
	case old == nil:
		return nil, "the previous view has no lexical index"
	case old.N() != prev.Snap.NumChunks():
		return nil, "the previous lexical index is not of the previous view's chunks"
	case old.Options() != retrieve.BM25Params:
		return nil, "the previous lexical index has other BM25 parameters"
	}
	// The analysis needs no check: every view of a Store is built with
	// its analyzers (Options.Analyzers, fixed when it is opened).
	p := prev.Snap
	bySeg := make(map[segmentEntry]int, len(p.segs))
	for k, sg := range p.segs {
		bySeg[sg.entry] = k
	}
	out := make([]int32, snap.NumChunks())
	reused := 0
	for k, sg := range snap.segs {
		base := snap.chunkBase[k]
		if pk, ok := bySeg[sg.entry]; ok {
			for c := range snap.chunkBase[k+1] - base {
				out[base+c] = int32(p.chunkBase[pk] + c)
			}
			reused += snap.chunkBase[k+1] - base
			continue
		}
		dir := &sg.file.dir
		for j := range sg.file.numDocs() {
			lo, hi := base+int(dir.docChunk[j]), base+int(dir.docChunk[j+1])
			for i := lo; i < hi; i++ {
				out[i] = -1
			}
			plo, phi, ok := p.ChunkRange(string(dir.id(j)))
			if !ok || hi == lo || phi == plo || snap.Lang(lo) != p.Lang(plo) {
				continue
			}
			for i := lo; i < hi && plo+i-lo < phi; i++ {
				if chunk.Enriched(snap.Chunk(i)) == chunk.Enriched(p.Chunk(plo+i-lo)) {
					out[i] = int32(plo + i - lo)
					reused++
				}
			}
		}
	}
	if reused == 0 {
		return nil, "no chunk is unchanged"
	}
	return out, ""
}

// addChunksReusing adds snap's chunks to b, reusing old's postings for the
// chunks reuse maps (see lexicalReuse) and analysing the others.
func (s *Store) addChunksReusing(snap *Snapshot, an retrieve.Analyzers, b *lexical.InPlaceBuilder, old *lexical.BM25, reuse []int32) error {
	if err := b.Reuse(old); err != nil {
		return err
	}
	err := b.AddBatchedReusing(snap.NumChunks(), lexBatch, func(i int) int { return int(reuse[i]) },
		func(i int) []string { return an.Terms(snap.Chunk(i), snap.Lang(i)) })
	if err != nil {
		return err
	}
	return snap.damage()
}
