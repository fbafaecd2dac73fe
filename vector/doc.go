// Package vector holds fonte's dense-vector search: float32 and int8
// kernels, exact indexes (Flat, and FlatInt8 over int8 codes) and
// approximate ones (IVF, k-means cells probed n_probe at a time, and
// HNSW, a navigable small-world graph), with versioned binary encodings.
//
// Scores are inner products. Vectors are expected to be L2-normalised (see
// Normalize), so the inner product is the cosine similarity; the indexes do
// not normalise for the caller, because a caller that wants raw inner
// products must be able to have them.
//
// Results are ordered by descending score and, among equal scores, by
// ascending id, so the same index and query always give the same list
// whatever the insertion order.
//
// Indexes do their own locking: any number of searches may run
// concurrently with each other, and writes (Add, Delete, Train) exclude
// them.
//
// Where things are: flat.go and flat_int8.go hold the exact indexes that
// own their rows, flat_view.go FlatView, the exact index over rows that
// live elsewhere (a store's mapped segments), rows8.go the int8 copy of
// rows they share (Int8Block) and exact8.go the exact search over rows in
// parts, each with or without that copy; ivf.go and kmeans.go the IVF index;
// encode.go the Flat and IVF encodings and the decoder they share with
// HNSW. HNSW is split by concern: hnsw.go (options, type, constructor),
// hnsw_nodes.go (node storage), hnsw_insert.go (graph and insertion),
// hnsw_search.go (search), hnsw_scratch.go (a search's working memory and
// heaps), hnsw_delete.go (deletion and compaction), hnsw_quantize.go (its
// Int8 codes), hnsw_external.go (the caller's rows of an External index),
// hnsw_clone.go (an independent copy to update), hnsw_encode.go
// (encoding and decoding, full or links only), hnsw_inplace.go (the
// in-place form, searched where a mapping holds it), hnsw_inplace_own.go
// (its lazy checks and the copy a change makes first) and hnsw_results.go
// (node-level results, SearchNodes).
package vector
