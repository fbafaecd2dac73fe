// Package redis is fonte's store on Redis with the Query Engine
// (RediSearch 2.6 or later, single node or a Redis Cluster with the
// search coordinator): a fonte.Store whose dense leg runs as FT.SEARCH
// KNN in the engine and whose lexical leg is fonte's own BM25 over term
// postings kept in Redis.
//
// # Keys
//
// A collection c (URL parameter collection) keeps everything a reader
// must see change at once in one cluster slot, under the hash tag {c}:
//
//	fonte:{c}:settings  the IndexSettings and the layout's format version
//	fonte:{c}:meta      generation, commit time, chunk and term totals, the
//	                    current FT index and its vector algorithm, counters
//	fonte:{c}:docs      document ID → live version, chunk count, terms, tags
//	fonte:{c}:pending   versions that exist but are not live (being written,
//	                    or replaced and being deleted) → chunk count
//	fonte:{c}:lock      the write lock (SET NX PX, random token)
//	fonte:{c}:lockq     writers waiting for it, by arrival (it goes to the
//	fonte:{c}:lockw     first), and when each last asked
//
// The data is spread over the cluster by plain keys, each written under a
// version number the collection hands out once per Put:
//
//	fonte:c:c:<ver>:<i>  HASH, chunk i: text, metadata, TAG/NUMERIC/TEXT
//	                     fields and the vector (the FT index's PREFIX)
//	fonte:c:d:<ver>      HASH, the document's description and text
//	fonte:c:t:<term>     HASH, postings "<ver>.<i>" → "<tf>.<chunk length>"
//
// One FT index per collection, fonte:c:idx:<n>, over the chunk hashes.
//
// # Commits across shards
//
// A document's keys live on many shards, so no MULTI can cover them.
// Instead, a version is invisible until the document map names it. Put
// registers a new version as pending, then writes the document's chunk
// hashes (one pipeline) and its postings; readers ignore every chunk,
// posting and KNN hit whose version the document map does not hold. The
// commit is then one MULTI/EXEC on the meta slot, under WATCH of the lock
// and the meta hash: it bumps the generation, stores the totals, the
// settings and the index, updates the document map, and moves the
// replaced versions to pending. After it, the replaced versions' keys are
// deleted (postings first, then chunk and document hashes, then their
// pending entries), so an interrupted deletion resumes from pending.
//
// What a commit guarantees:
//   - all or nothing: the switch is one EXEC on one slot; before it no
//     reader sees any of the transaction's documents, after it every
//     reader sees all of them. If fn fails, or the switch does, the
//     versions written are deleted; if the server cannot be reached they
//     stay pending, invisible, and the next commit or Purge deletes them.
//   - one writer: writers take the lock (SET NX PX, refreshed while the
//     commit runs, released by compare-and-delete), in the order they
//     asked for it; the switch also
//     checks, under WATCH, that the lock is still its own and that the
//     generation is the one it started from, so a writer that lost its
//     lock (paused past the lock's expiry) commits nothing.
//   - an EXEC whose reply is lost (the connection drops) is either
//     applied whole or not at all; the error says the store was
//     unavailable, and either way the next writer cleans up.
//   - durable as the server is: a node with the append-only file fsynced
//     on every write (appendfsync always) loses nothing that Update
//     returned for when it is killed. Replication is asynchronous: with
//     the URL's wait_replicas=N, before the switch every master's
//     replicas acknowledge the writes so far (a write and WAIT on one
//     connection: a master's replication stream is ordered), after it
//     the meta master's acknowledge the switch (WAIT on the EXEC's
//     connection), and only then are the replaced versions deleted; else
//     ErrNotReplicated. Without it, a master that fails over before its
//     replica has the switch loses the commit, and the deletions after
//     the switch may already have reached other shards.
//
// What a reader sees mid-commit: the previous generation, whole. Every
// read loads the document map of one generation (cached per generation),
// filters by its live versions, and checks after its last round trip
// that the generation has not moved; if it has (a switch happened, and
// the cleanup after it may have deleted keys the read wanted), the read
// runs again on the new generation. So a search, a Document or a
// TermStats answer is always exactly one generation's. A reader only
// pays for concurrent writes by filtering a few stale hits, and the dense
// leg asks the engine for more hits when filtering leaves fewer than K.
//
// The vector index is replaced, not altered, when it must change: a
// rebuild with another dimension, or a collection growing past
// hnsw_above chunks (FLAT below, HNSW from there on). The new index is
// created over the same prefix, scanned in full before the switch, named
// by it, and the old one dropped after.
//
// # The lexical leg
//
// RediSearch 2.6 scores a multi-word query as one aggregated term
// frequency with one idf (Redis 8 adds BM25STD); ranking by it loses most
// of BM25's quality. So the lexical leg reads the query terms' postings
// in one pipeline and computes fonte's BM25 (fonte.BM25K1, fonte.BM25B)
// exactly in Go, with the collection's chunk count and total length from
// the meta hash, then fetches the top K chunks. TermStats is exact: a
// term's document frequency is the number of its live postings (HLEN
// when no version is pending).
//
// Measured on BEIR SciFact (5,183 abstracts as one chunk each, fonte's
// English analysis, 300 test queries, one client on loopback, RediSearch
// 2.6.37 single node, three runs on a shared 2-core machine), the same
// terms in the TEXT field, by BenchmarkSciFactLexical:
//
//	go test ./redis -run '^$' -bench SciFact -benchtime 1x -v
//
//	how the leg ranks                                nDCG@10  recall@100  ms/query
//	fonte's BM25 over the postings (this package)    0.684    0.919       6.4–8.6
//	one OR query, SCORER BM25                        0.102    0.576       0.7–0.8
//	one query per term (top 1,000), SCORER BM25,     0.536    0.872       7.4–8.8
//	summed
//
// The first equals fonte's in-memory BM25 on the same set (0.684/0.919).
//
// The TEXT field holds fonte's terms, not the chunk text: the databases
// index what fonte's analysis made (its identifier-aware tokens, its
// Italian), with the engine's stemming and stop words off, so FT.SEARCH
// by hand finds what the lexical leg scores.
//
// # The dense leg
//
// FT.SEARCH "(filter)=>[KNN k @vec $v AS dist]" SORTBY dist with
// DIALECT 2, FLAT (exact) below hnsw_above chunks and HNSW from there on,
// the filter applied by the engine before the cut (see engineFilter),
// scores recomputed as cosine similarity from the returned vectors. The
// cluster coordinator leaves out a shard it cannot reach without an
// error, so on a cluster a count of what the filter matches goes with
// each KNN, and an answer counting fewer chunks than are live fails with
// fonte.ErrUnavailable rather than returning a partial list.
package redis
