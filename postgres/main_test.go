package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/internal/testserver"
	"github.com/jackc/pgx/v5"
)

// serverURL is the test server every test's collections live on.
var serverURL string

func TestMain(m *testing.M) {
	u, stop, err := testserver.StartPostgres()
	if err != nil {
		fmt.Fprintln(os.Stderr, "postgres tests need a PostgreSQL server:", err)
		os.Exit(1)
	}
	serverURL = u
	code := m.Run()
	stop()
	os.Exit(code)
}

var collections atomic.Int64

// runID keeps this run's collections apart from an earlier run's on a
// server that outlives the tests (FONTE_TEST_POSTGRES_URL).
var runID = strconv.FormatInt(time.Now().UnixNano()%(36*36*36*36*36), 36)

var notName = regexp.MustCompile(`[^a-z0-9_]+`)

// newCollection returns the server URL for a collection no other test
// uses, with extra query parameters (name=value pairs); the collection's
// schema is dropped when the test ends.
func newCollection(t testing.TB, params ...string) string {
	t.Helper()
	name := fmt.Sprintf("t%s_%d_%s", runID, collections.Add(1), notName.ReplaceAllString(strings.ToLower(t.Name()), "_"))
	name = name[:min(len(name), 40)]
	t.Cleanup(func() {
		ctx := context.Background()
		if c, err := pgx.Connect(ctx, serverURL); err == nil {
			c.Exec(ctx, "DROP SCHEMA IF EXISTS "+quote(schemaName(name))+" CASCADE")
			c.Close(ctx)
		}
	})
	return withParams(t, serverURL, append([]string{"collection", name}, params...)...)
}

// withParams sets query parameters of raw.
func withParams(t testing.TB, raw string, params ...string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// testSettings are the settings most tests index with.
var testSettings = fonte.IndexSettings{Analyzer: "words/v1", Chunker: "test/v1", Embedder: "hash/4", Dim: 4}

// open opens a store and closes it when the test ends.
func open(t testing.TB, u string, o fonte.StoreOptions) *Store {
	t.Helper()
	s, err := Open(context.Background(), u, o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// collection of the URL.
func collectionOf(t testing.TB, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query().Get("collection")
}

// rawConn is a direct connection for looking at the tables themselves.
func rawConn(t testing.TB) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

// count runs a count query.
func count(t testing.TB, c *pgx.Conn, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := c.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// words are the test analysis: lower-cased fields.
func words(s string) []string { return strings.Fields(strings.ToLower(s)) }

// vecOf is a deterministic vector of dimension dim for a text.
func vecOf(text string, dim int) []float32 {
	sum := sha256.Sum256([]byte(text))
	r := rand.New(rand.NewPCG(uint64(sum[0])|uint64(sum[1])<<8|uint64(sum[2])<<16, uint64(sum[3])))
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// record builds a document with one chunk per text, each with its terms
// (words), text hash and vector of dimension dim.
func record(id string, dim int, texts ...string) fonte.Record {
	r := fonte.Record{
		Doc: fonte.Document{ID: id, Title: "Title of " + id, Source: "src/" + id, Language: "en",
			SHA256: hashText(strings.Join(texts, "\n")), Updated: time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.UTC),
			Text: strings.Join(texts, "\n")},
	}
	off := 0
	for i, text := range texts {
		r.Chunks = append(r.Chunks, fonte.Chunk{ID: fmt.Sprintf("%s#%d", id, i), DocID: id, Title: r.Doc.Title,
			Headings: []string{"H1", fmt.Sprintf("H2 %d", i)}, Text: text, Start: off, End: off + len(text), Position: i})
		off += len(text) + 1
		r.TextHashes = append(r.TextHashes, hashText(text))
		r.Vectors = append(r.Vectors, vecOf(text, dim))
		r.Terms = append(r.Terms, words(text))
	}
	return r
}

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// put commits records in one Update.
func put(t testing.TB, s *Store, recs ...fonte.Record) {
	t.Helper()
	err := s.Update(context.Background(), func(tx fonte.StoreTx) error {
		for _, r := range recs {
			if err := tx.Put(context.Background(), r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// cosine is the similarity the dense leg scores with.
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// status reads a store's status.
func status(t testing.TB, s *Store) fonte.StoreStatus {
	t.Helper()
	st, err := s.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	return st
}
