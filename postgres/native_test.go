package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
)

// The tests in this file and in ha_*_test.go run against the native
// PostgreSQL of ../shared/postgres (many backends, a real pool, a hot
// standby, crashes), each with servers of its own.

// startNative starts a native primary for one test and stops it when the
// test ends.
func startNative(t testing.TB) *testserver.NativePostgres {
	t.Helper()
	pg, err := testserver.StartNativePostgres("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	return pg
}

// startStandby starts a hot standby of primary for one test.
func startStandby(t testing.TB, primary *testserver.NativePostgres) *testserver.NativePostgres {
	t.Helper()
	sb, err := primary.StartStandby("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sb.Stop)
	return sb
}

// versionDocs and versionChunks size the corpus every generation of the
// consistency tests rewrites whole.
const (
	versionDocs   = 6
	versionChunks = 3
)

// versionRecords is generation v's corpus: every chunk's text (and terms)
// names v, and every document's metadata, so a read that mixed two
// commits shows two versions.
func versionRecords(v int) []fonte.Record {
	recs := make([]fonte.Record, versionDocs)
	for i := range recs {
		var texts []string
		for j := 0; j < versionChunks; j++ {
			texts = append(texts, fmt.Sprintf("common v%d doc%d part%d", v, i, j))
		}
		recs[i] = record(fmt.Sprintf("d%d", i), testSettings.Dim, texts...)
		recs[i].Meta = map[string]string{"v": strconv.Itoa(v)}
	}
	return recs
}

// versionOfText is the version a chunk of versionRecords names.
func versionOfText(text string) string { return strings.TrimPrefix(strings.Fields(text)[1], "v") }

// wholeVersion reads the collection through every read a search makes
// (documents, both legs, term statistics, status) and checks that each
// sees one version of versionRecords whole. It returns the version each
// read saw (they may differ from one read to the next: each is its own
// snapshot) or an error saying what was mixed.
func wholeVersion(ctx context.Context, s *Store) ([]int, error) {
	var seen []int
	one := func(what string, versions []string, n int) error {
		if len(versions) != n {
			return fmt.Errorf("%s: %d items, want %d (a half-applied commit?)", what, len(versions), n)
		}
		for _, v := range versions {
			if v != versions[0] {
				return fmt.Errorf("%s: versions %v mixed in one read", what, versions)
			}
		}
		v, err := strconv.Atoi(versions[0])
		if err != nil {
			return fmt.Errorf("%s: version %q", what, versions[0])
		}
		seen = append(seen, v)
		return nil
	}
	docs, err := s.Documents(ctx)
	if err != nil {
		return nil, err
	}
	var vs []string
	for _, d := range docs {
		vs = append(vs, d.Meta["v"])
	}
	if err := one("Documents", vs, versionDocs); err != nil {
		return nil, err
	}
	all := versionDocs * versionChunks
	lex, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"common"}, K: all + 10})
	if err != nil {
		return nil, err
	}
	vs = vs[:0]
	for _, h := range lex {
		vs = append(vs, versionOfText(h.Chunk.Text))
	}
	if err := one("LexicalTopK", vs, all); err != nil {
		return nil, err
	}
	dense, err := s.VectorTopK(ctx, fonte.VectorQuery{Vector: vecOf("query", testSettings.Dim), K: all + 10})
	if err != nil {
		return nil, err
	}
	vs = vs[:0]
	for _, h := range dense {
		vs = append(vs, versionOfText(h.Chunk.Text))
	}
	if err := one("VectorTopK", vs, all); err != nil {
		return nil, err
	}
	st, err := s.TermStats(ctx, []string{"common", "doc0"}, fonte.Filter{})
	if err != nil {
		return nil, err
	}
	if st.Chunks != all || st.DF[0] != all || st.DF[1] != versionChunks || st.TotalTerms != int64(4*all) {
		return nil, fmt.Errorf("TermStats: %+v, want %d chunks of 4 terms, df(common) %d, df(doc0) %d", st, all, all, versionChunks)
	}
	ss, err := s.Status(ctx)
	if err != nil {
		return nil, err
	}
	if ss.Documents != versionDocs || ss.Chunks != all {
		return nil, fmt.Errorf("Status: %d documents, %d chunks; want %d and %d", ss.Documents, ss.Chunks, versionDocs, all)
	}
	return seen, nil
}

// commitVersion replaces the whole corpus with version v in one Update.
func commitVersion(ctx context.Context, s *Store, v int) error {
	return s.Update(ctx, func(tx fonte.StoreTx) error {
		for _, r := range versionRecords(v) {
			if err := tx.Put(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// waitFor polls cond every 50 ms until it returns nil or d passes, and
// fails the test with its last error.
func waitFor(t testing.TB, d time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
