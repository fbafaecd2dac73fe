package redis

import (
	"fmt"
	"strconv"
	"strings"
)

// The key space of one collection c. Everything a reader must see change
// at once lives in one slot, under the hash tag {c}: the settings, the
// meta hash (generation, totals, current index, counters), the document
// map (document ID → live version), the pending versions and the write
// lock. The bulk data is spread over the cluster by plain keys:
//
//	fonte:c:c:<ver>:<i>   HASH, chunk i of document version ver (the FT index's prefix)
//	fonte:c:d:<ver>       HASH, the document of version ver (text, metadata)
//	fonte:c:t:<term>      HASH, the term's postings: "<ver>.<i>" → "<tf>.<len>"
//	fonte:c:s:<n>         a string written before WAIT (wait_replicas), expiring
//	fonte:c:idx:<n>       the FT index (not a key; FT.CREATE's name)
//
// Versions are numbers the collection hands out once (HINCRBY), written in
// base 36. Keys carry no document ID, so no ID can form a hash tag or need
// escaping; the chunk and document hashes carry the ID as a field.
type keys struct {
	coll string
	data string // "fonte:c:"
	slot string // "fonte:{c}:"
}

func newKeys(coll string) keys {
	return keys{coll: coll, data: "fonte:" + coll + ":", slot: "fonte:{" + coll + "}:"}
}

func (k keys) meta() string     { return k.slot + "meta" }
func (k keys) docs() string     { return k.slot + "docs" }
func (k keys) pending() string  { return k.slot + "pending" }
func (k keys) settings() string { return k.slot + "settings" }
func (k keys) lock() string     { return k.slot + "lock" }

// lockQueue and lockSeen are the writers waiting for the lock, by
// arrival, and when each last asked for it.
func (k keys) lockQueue() string { return k.slot + "lockq" }
func (k keys) lockSeen() string  { return k.slot + "lockw" }

// chunkPrefix is the FT index's PREFIX: chunk hashes only.
func (k keys) chunkPrefix() string { return k.data + "c:" }

func (k keys) chunk(ver uint64, i int) string {
	return k.data + "c:" + fmtVer(ver) + ":" + strconv.FormatInt(int64(i), 36)
}

func (k keys) doc(ver uint64) string { return k.data + "d:" + fmtVer(ver) }

func (k keys) term(t string) string { return k.data + "t:" + t }

// syncKey is the n-th key a replica sync may write (see syncReplicas):
// not a data key, and it expires.
func (k keys) syncKey(n int) string { return k.data + "s:" + strconv.Itoa(n) }

// indexPrefix starts the name of every FT index of the collection.
func (k keys) indexPrefix() string { return k.data + "idx:" }

func (k keys) index(n uint64) string { return k.indexPrefix() + strconv.FormatUint(n, 10) }

// parseDataKey reads the version (and chunk number, -1 for a document
// key) out of a chunk or document key of the collection.
func (k keys) parseDataKey(key string) (ver uint64, i int, ok bool) {
	rest, found := strings.CutPrefix(key, k.data)
	if !found {
		return 0, 0, false
	}
	switch {
	case strings.HasPrefix(rest, "c:"):
		v, n, found := strings.Cut(rest[2:], ":")
		if !found {
			return 0, 0, false
		}
		ver, err1 := parseVer(v)
		x, err2 := strconv.ParseInt(n, 36, 32)
		if err1 != nil || err2 != nil || x < 0 {
			return 0, 0, false
		}
		return ver, int(x), true
	case strings.HasPrefix(rest, "d:"):
		ver, err := parseVer(rest[2:])
		return ver, -1, err == nil
	}
	return 0, 0, false
}

func fmtVer(v uint64) string { return strconv.FormatUint(v, 36) }

func parseVer(s string) (uint64, error) { return strconv.ParseUint(s, 36, 64) }

// posting is one entry of a term's postings hash: chunk i of version ver
// holds the term tf times and has length terms in all, so BM25 needs no
// second lookup.
type posting struct {
	ver    uint64
	i      int
	tf     int
	length int
}

func postingField(ver uint64, i int) string {
	return fmtVer(ver) + "." + strconv.FormatInt(int64(i), 36)
}

func postingValue(tf, length int) string {
	return strconv.FormatInt(int64(tf), 36) + "." + strconv.FormatInt(int64(length), 36)
}

func parsePosting(field, value string) (posting, error) {
	v, i, ok1 := strings.Cut(field, ".")
	tf, n, ok2 := strings.Cut(value, ".")
	if !ok1 || !ok2 {
		return posting{}, fmt.Errorf("malformed posting %q → %q", field, value)
	}
	ver, err := parseVer(v)
	if err != nil {
		return posting{}, fmt.Errorf("malformed posting %q: %w", field, err)
	}
	p := posting{ver: ver}
	for _, x := range []struct {
		s   string
		dst *int
	}{{i, &p.i}, {tf, &p.tf}, {n, &p.length}} {
		u, err := strconv.ParseUint(x.s, 36, 31)
		if err != nil {
			return posting{}, fmt.Errorf("malformed posting %q → %q: %w", field, value, err)
		}
		*x.dst = int(u)
	}
	return p, nil
}

// validCollection reports whether name can name a collection: it becomes
// part of every key, the hash tag and the index names, so it may not hold
// ':' (one collection's prefix would contain another's), braces (hash
// tags) or glob characters (SCAN patterns).
func validCollection(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
