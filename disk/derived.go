package disk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"

	"github.com/fonte-rag/fonte/lexical"
	"github.com/fonte-rag/fonte/retrieve"
	"github.com/fonte-rag/fonte/vector"
)

// Derived indexes: the BM25 postings and the HNSW graph are functions of
// the stored chunks, so the store's segments stay the only source of
// truth, and for small corpora they are rebuilt in memory when an index
// is opened (2,000 chunks analyse in well under a second). From
// PersistMinChunks on, rebuilding at every open would cost seconds to
// minutes (an HNSW graph over a million vectors takes many minutes), so
// they are kept in the store as blobs, written by a commit of their own
// right after the data's, and checked against the data before use:
//
//	lexical blob: "FDLX" v2, the corpus fingerprint (32 bytes), zero padding
//	              to 64 bytes, lexical.BM25's in-place form (AppendInPlace),
//	              searched where the blob's mapping holds it (v1, still
//	              read, held BM25's varint form, decoded whole at open)
//	graph blob:   "FDGR" v2, key count, the keys (uint64 each), vector.HNSW's
//	              links-only encoding (EncodeLinks): the live nodes' vectors
//	              are the segments' rows, found by key, so the vectors are
//	              stored once. Version 1 (still read) held vector.HNSW's
//	              full encoding, a second copy of every vector.
//
// BlobLexical and BlobGraph name the two blobs; the access classes'
// graphs are blobs of their own (BlobClassPrefix, classblob.go). A lexical blob whose fingerprint differs from the data is ignored and
// rebuilt. A graph is keyed by retrieve.ChunkKey, so an older graph is
// brought up to date in place: the keys the data lost are deleted, the
// new ones added. A crash between the two commits leaves stale blobs,
// which the checks reject.
const (
	BlobLexical = "derived/lexical"
	BlobGraph   = "derived/graph"
)

// PersistMinChunks is the corpus size from which derived indexes are kept
// in the store. A variable so tests can lower it.
var PersistMinChunks = 20_000

var (
	lexicalMagicV1 = []byte("FDLX\x01\x00\x00\x00")
	lexicalMagic   = []byte("FDLX\x02\x00\x00\x00")
	graphMagicV1   = []byte("FDGR\x01\x00\x00\x00")
	graphMagicV2   = []byte("FDGR\x02\x00\x00\x00")
	graphMagic     = []byte("FDGR\x03\x00\x00\x00")
)

// numberingFingerprint identifies the chunks of snap in their order,
// which the generation's segment files (immutable, each named once and
// summed) fix exactly; so checking a derived index against the data reads
// no chunk.
func numberingFingerprint(snap *Snapshot) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "fonte-numbering/1\x00%d\x00", snap.NumChunks())
	for _, sg := range snap.segs {
		fmt.Fprintf(h, "%s\x00%d\x00%08x\x00", sg.entry.File, sg.entry.Size, sg.entry.CRC32C)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// corpusFingerprint identifies what the lexical index is a function of:
// the analysis, BM25's parameters and the chunks in their order.
func corpusFingerprint(snap *Snapshot, an retrieve.Analyzers) [32]byte {
	n := numberingFingerprint(snap)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%v\x00%v\x00%x", an.Name(), retrieve.BM25Params.K1, retrieve.BM25Params.B, n)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// storeGraph is how a store builds its HNSW graph.
//
// Recall on clustered 384-d vectors falls as the corpus grows, because
// the walk must pick a query's neighbours out of a growing crowd of
// nearly equidistant vectors of its topic: synth's corpus (200 topics,
// noise four times the centres' spread) puts 500 chunks in a topic at
// 100,000 and 5,000 at 1,000,000, up to 13,000 in the largest topics,
// where most queries land, and with M 16 and a list of 100 recall@10
// fell from 0.998 to 0.600. A graph of one 13,000-chunk topic alone gave
// 0.63 at M 16 and ef 100, 0.90 at ef 400; with M 32, 0.98 at ef 400:
// the candidate list and the links, not the build's effort, limit it.
// So a store's graph keeps 32 links a node (64 on layer 0), searches a
// list of EfSearch candidates, and walks on Int8 codes (Quantize: a
// quarter of the bytes a candidate, kept in the graph blob beside the
// links and read to the heap at open), re-ranking only the best
// candidates on the segments' float32 rows, so that the longer list
// costs about what the float32 walk of 100 did.
var storeGraph = vector.HNSWOptions{M: 32, Quantize: true, EfSearch: storeEfSearch}

// storeEfSearch is the candidate list of a store graph's searches (a
// search setting: a graph stored with another list searches this one).
// At a million synth chunks (M 32, int8 codes, fonte-scale's filtered
// phase, unrestricted reader, 200 queries) recall@10 against the exact
// leg was 0.883 at 100, 0.982 at 200 and 0.997 at 400; 200 keeps the
// recall issue 24 asks (0.95) with room, at about three quarters of
// 400's time a query.
const storeEfSearch = 200

// derivedOptions collects what snap's blobs (or the previous in-memory
// index, prev) offer to retrieve.NewWith.
func (s *Store) derivedOptions(snap *Snapshot, prev *retrieve.Index) retrieve.Options {
	o := retrieve.Options{Dense: s.opts.Dense, Keys: snap.Keys(), HNSW: storeGraph}
	// The class graphs: those stored for this very generation, searched
	// in place, else the previous view's, brought up to date by NewWith.
	o.ClassGraphs = withPrevious(classGraphsOf(snap), prev)
	if b, err := snap.MapBlob(BlobLexical); err == nil {
		if m, err := decodeLexicalBlob(b, corpusFingerprint(snap, s.analyzers()), s.analyzers()); err == nil {
			o.BM25 = m
		} else {
			slog.Debug("rebuilding the lexical index", "reason", err)
		}
	} else if !errors.Is(err, ErrNoBlob) {
		slog.Warn("rebuilding the lexical index: its stored copy is unreadable", "err", err)
	}
	// A graph blob written for this very numbering is searched in place;
	// else the previous view's graph is brought up to date; else an older
	// blob is.
	var stale *vector.HNSW
	var staleKeys []uint64
	var prevGraph *vector.HNSW
	if prev != nil {
		if g, _ := prev.Graph(); g != nil && g.Dim() == snap.Dim() {
			prevGraph = g
		}
	}
	if b, err := snap.MapBlob(BlobGraph); err == nil {
		switch {
		case prevGraph != nil && !graphBlobFor(b, numberingFingerprint(snap)):
			// An older blob, and the previous view's graph is handed over
			// below: opening the blob would copy its codes to the heap
			// (hundreds of megabytes at a million chunks) for nothing.
		case bytes.HasPrefix(b, graphMagic):
			g, nodeKeys, nodePos, current, err := openGraphBlob(b, numberingFingerprint(snap), snap.NumChunks(), snap.Vector,
				func() func(uint64) ([]float32, bool) { return rowsByKey(snap, o.Keys) })
			switch {
			case err != nil:
				slog.Warn("rebuilding the HNSW graph: its stored copy is unreadable", "err", err)
			case g.Dim() != snap.Dim():
			case current:
				o.Graph, o.PreviousKeys, o.GraphPositions = g, nodeKeys, nodePos
				o.GraphRowsCurrent = true // its live rows are snap's
				return o
			default:
				stale, staleKeys = g, nodeKeys
			}
		default:
			g, keys, err := decodeGraphBlob(b, rowsByKey(snap, o.Keys))
			if err != nil {
				slog.Warn("rebuilding the HNSW graph: its stored copy is unreadable", "err", err)
			} else if g.Dim() == snap.Dim() {
				o.Graph, o.PreviousKeys = g, keys
				o.GraphRowsCurrent = true // its live rows are snap's
				return o
			}
		}
	} else if !errors.Is(err, ErrNoBlob) {
		slog.Warn("rebuilding the HNSW graph: its stored copy is unreadable", "err", err)
	}
	if prev != nil {
		if g, keys := prev.Graph(); g != nil && g.Dim() == snap.Dim() {
			// A copy: the previous view keeps searching its graph while
			// this one is brought up to date, which on the graph itself
			// would hold its write lock, and every query, for the whole
			// batch.
			o.Graph, o.PreviousKeys = g.Clone(), keys
			return o
		}
	}
	if stale != nil {
		// Its live rows were found by key in snap: current, but nodes
		// for chunks snap lacks, or chunks it lacks, are brought up to
		// date by the build.
		o.Graph, o.PreviousKeys, o.GraphRowsCurrent = stale, staleKeys, true
	}
	return o
}

// PersistDerived writes the derived indexes of the latest generation to
// the store when the corpus is large enough and they were (re)built, in a
// commit of their own. Failing to persist is not fatal: the data is
// committed, and the next open rebuilds what is missing.
//
// After a deletion (compact set), the graph's tombstones are removed first,
// so the deleted chunks' vectors are in no blob the commit writes.
func (s *Store) PersistDerived(ctx context.Context, compact bool) error {
	if s.opts.ReadOnly {
		return nil
	}
	// Small corpora keep nothing derived: don't build a search index the
	// run itself does not need.
	if snap, err := s.Snapshot(); err != nil || snap.NumChunks() < PersistMinChunks {
		return err
	}
	v, err := s.ViewLatest()
	if err != nil {
		return err
	}
	snap, idx := v.Snap, v.Index
	if err != nil {
		return err
	}
	if snap.NumChunks() < PersistMinChunks {
		return nil
	}
	if g, _ := idx.Graph(); g != nil && compact {
		g.Compact()
	}
	built := idx.Built()
	haveLex, haveGraph := hasBlob(snap, BlobLexical), hasBlob(snap, BlobGraph)
	g, keys := idx.Graph()
	writeLex := built.BM25 || !haveLex || v.lexical != nil
	writeGraph := g != nil && (built.Graph || compact || !haveGraph)
	// The class graphs, built here for the classes no reader has searched
	// yet, so that the next open maps them rather than builds them.
	if compact {
		idx.CompactClassGraphs()
	}
	cgs, err := idx.ClassGraphs()
	if err != nil {
		slog.Warn("not persisting the class graphs", "err", err)
		cgs = nil
	}
	classWrite, classDrop, releaseClass := classBlobsToWrite(snap, cgs, compact)
	defer releaseClass()
	if !writeLex && !writeGraph && len(classWrite) == 0 && len(classDrop) == 0 {
		return nil
	}
	var lex, graph []byte
	switch {
	case v.lexical != nil:
		lex = v.lexical.blob // built by the view, in its final form
	case writeLex:
		lex = encodeLexicalBlob(idx.BM25(), corpusFingerprint(snap, s.analyzers()))
	}
	if writeGraph {
		var scratch []byte
		graph = encodeGraphBlobIn(g, keys, numberingFingerprint(snap), func(n int) []byte {
			scratch = mapScratch(n)
			return scratch
		})
		defer releaseScratch(scratch)
	}
	err = s.Write(ctx, func(tx *Tx) error {
		if tx.Base().Generation() != snap.Generation() {
			return errSuperseded // another writer committed: its run persists
		}
		if lex != nil {
			tx.SetBlobOwned(BlobLexical, lex)
		}
		if graph != nil {
			tx.SetBlobOwned(BlobGraph, graph)
		}
		for name, b := range classWrite {
			tx.SetBlobOwned(name, b)
		}
		for _, name := range classDrop {
			tx.SetBlob(name, nil)
		}
		return nil
	})
	// The view's lexical index is a mapping that lives as long as the
	// view does: keep it until the commit has written it.
	runtime.KeepAlive(v)
	if errors.Is(err, errSuperseded) {
		return nil
	}
	return err
}

var errSuperseded = errors.New("superseded")

// Preload builds the search index of the current generation before
// a large corpus is changed, so that the change updates its graph in place
// (deleting and adding the changed chunks' keys) rather than building a
// graph from nothing afterwards.
// It is an optimisation only: a store that cannot be read yet (one being
// rebuilt with other settings) is left to the update itself.
func (s *Store) Preload() {
	snap, err := s.Snapshot()
	if err != nil || snap.NumChunks() < PersistMinChunks {
		return
	}
	if !hasBlob(snap, BlobGraph) {
		return
	}
	if _, err := s.ViewLatest(); err != nil {
		slog.Debug("not reusing the stored graph", "err", err)
	}
}

// DropDerived removes the derived blobs in tx, the class graphs' too, for
// a commit that deletes documents: their terms must not outlive them in a
// stale lexical blob, nor their vectors' codes in a graph.
func DropDerived(tx *Tx) {
	for _, name := range tx.Base().BlobNames() {
		if name == BlobLexical || name == BlobGraph || isClassBlob(name) {
			tx.SetBlob(name, nil)
		}
	}
}

func hasBlob(snap *Snapshot, name string) bool {
	return slices.Contains(snap.BlobNames(), name)
}

// lexicalFormOff is where a version-2 lexical blob's in-place form
// starts: after the magic and the fingerprint, padded so that the form is
// 64-byte aligned in the blob, as the blob's bytes are in its file.
const lexicalFormOff = 64

func encodeLexicalBlob(m *lexical.BM25, fp [32]byte) []byte {
	b := make([]byte, lexicalFormOff, lexicalFormOff+64<<10)
	copy(b, lexicalMagic)
	copy(b[len(lexicalMagic):], fp[:])
	return m.AppendInPlace(b)
}

// decodeLexicalBlob opens a lexical blob for the data whose fingerprint is
// fp. A version-2 blob is searched in place: the model keeps b, which must
// stay mapped while it is used (the index built over the snapshot keeps
// the snapshot).
func decodeLexicalBlob(b []byte, fp [32]byte, an retrieve.Analyzers) (*lexical.BM25, error) {
	v2 := bytes.HasPrefix(b, lexicalMagic)
	if !v2 && !bytes.HasPrefix(b, lexicalMagicV1) || len(b) < len(lexicalMagic)+32 {
		return nil, errors.New("lexical blob: not a fonte lexical blob of this version")
	}
	if !bytes.Equal(b[len(lexicalMagic):len(lexicalMagic)+32], fp[:]) {
		return nil, errors.New("lexical blob: built for other data")
	}
	var m *lexical.BM25
	var err error
	if v2 {
		if len(b) < lexicalFormOff {
			return nil, errors.New("lexical blob: truncated")
		}
		m, err = lexical.OpenBM25InPlace(b[lexicalFormOff:], an.Default)
	} else {
		m, err = lexical.DecodeBM25(b[len(lexicalMagic)+32:], an.Default)
	}
	if err != nil {
		return nil, err
	}
	if m.Options() != retrieve.BM25Params {
		return nil, errors.New("lexical blob: other BM25 parameters")
	}
	return m, nil
}
