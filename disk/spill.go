package disk

import (
	"cmp"
	"fmt"
	"github.com/fonte-rag/fonte/retrieve"
	"io"
	"slices"
)

// Spilling: a transaction that puts more than Options.TxMemory bytes of
// documents writes them out as segment files of the generation it will
// commit, instead of holding the whole change in memory until the
// commit. A spilled file is named in no manifest until the commit, so a
// crash or a failed transaction leaves only files the next writer
// removes (and the failing one removes at once).

// spilledSeg is a segment a transaction wrote before its commit.
type spilledSeg struct {
	entry segmentEntry
	ids   []string // its documents, in ID order
}

// spill writes the pending puts as segments. The caller holds tx.mu.
func (tx *Tx) spill() error {
	s := tx.store
	docs := make([]*docData, 0, len(tx.puts))
	for _, d := range tx.puts {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b *docData) int { return cmp.Compare(a.doc.ID, b.doc.ID) })
	for _, group := range pack(docs, s.cfg.Dim, s.opts.segmentBytes()) {
		e, err := tx.writeSegment(group)
		if err != nil {
			return err
		}
		sp := spilledSeg{entry: e}
		for _, d := range group {
			sp.ids = append(sp.ids, d.doc.ID)
			tx.spillIDs[d.doc.ID] = len(tx.spilled)
		}
		tx.spilled = append(tx.spilled, sp)
	}
	clear(tx.puts)
	tx.pending = 0
	return nil
}

// writeSegment writes docs as the transaction's next segment file.
func (tx *Tx) writeSegment(docs []*docData) (segmentEntry, error) {
	s := tx.store
	e := segmentEntry{File: fmt.Sprintf("seg-%d-%d.fseg", tx.gen, tx.nextSeg), Docs: len(docs)}
	tx.nextSeg++
	for _, d := range docs {
		e.Chunks += len(d.chunks)
	}
	tx.created = append(tx.created, e.File)
	withInt8 := tx.exactScan(e.Chunks)
	tx.written += e.Chunks
	err := s.writeFile("writing segment", s.path(e.File), func(w io.Writer) (err error) {
		e.Size, e.CRC32C, err = encodeSegment(w, s.cfg.Dim, docs, withInt8)
		return err
	})
	return e, err
}

// exactScan reports whether a segment of chunks more chunks is likely to
// be searched by an exact scan, whose int8 copy it then carries (the
// store's dense index is exact, or automatic and the corpus, as far as
// this transaction has written it, below retrieve.HNSWMinChunks): a
// corpus searched through a graph does not pay the copy's disk.
func (tx *Tx) exactScan(chunks int) bool {
	switch tx.store.opts.Dense {
	case retrieve.DenseExact:
		return true
	case retrieve.DenseAuto:
		return tx.base.NumChunks()+tx.written+chunks < retrieve.HNSWMinChunks
	}
	return false
}

// forget drops a spilled document that a later Put or Delete of the
// transaction supersedes; its segment is rewritten at the commit. The
// caller holds tx.mu.
func (tx *Tx) forget(id string) bool {
	k, ok := tx.spillIDs[id]
	if ok {
		delete(tx.spillIDs, id)
		tx.stale[k] = true
	}
	return ok
}

// spilledForCommit returns the spilled segments the commit keeps as they
// are, and the documents of those it must rewrite without what was
// superseded.
func (tx *Tx) spilledForCommit() (keep []segmentEntry, rewrite []*docData, err error) {
	for k, sp := range tx.spilled {
		if !tx.stale[k] {
			keep = append(keep, sp.entry)
			continue
		}
		docs, sf, err := loadSegment(tx.store.path(sp.entry.File), sp.entry, tx.store.cfg.Dim)
		if err != nil {
			return nil, nil, err
		}
		tx.keep = append(tx.keep, sf) // its rows are read until the commit ends
		for _, d := range docs {
			if j, live := tx.spillIDs[d.doc.ID]; live && j == k {
				rewrite = append(rewrite, d)
			}
		}
	}
	return keep, rewrite, nil
}

// removeSpilled deletes the files of a transaction that did not commit.
func (tx *Tx) removeSpilled() {
	for _, name := range tx.created {
		tx.store.fs.Remove(tx.store.path(name))
	}
	tx.created = nil
}
