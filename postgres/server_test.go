package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte"
)

const password = "s3cret-Passw0rd"

// withPassword puts password in a URL's user info.
func withPassword(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String()
}

// checkUnavailable checks err wraps fonte.ErrUnavailable, names addr and
// hides the password.
func checkUnavailable(t *testing.T, what string, err error, addr string) {
	t.Helper()
	if !errors.Is(err, fonte.ErrUnavailable) {
		t.Errorf("%s: %v, want ErrUnavailable", what, err)
		return
	}
	if !strings.Contains(err.Error(), addr) {
		t.Errorf("%s: %q does not name %s", what, err, addr)
	}
	if strings.Contains(err.Error(), password) {
		t.Errorf("%s: %q shows the password", what, err)
	}
}

func TestUnavailable(t *testing.T) {
	ctx := context.Background()

	// Nothing listens on the port.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = Open(ctx, "postgres://fonte:"+password+"@"+addr+"/fonte?sslmode=disable&collection=x", fonte.StoreOptions{Settings: testSettings})
	checkUnavailable(t, "Open on a closed port", err, addr)

	// A server that dies under an open store: the store talks to the test
	// server through a proxy, and the proxy goes away.
	p := newProxy(t)
	own := strings.Replace(serverURL, serverHost(t), p.addr(), 1)
	u := withParams(t, withPassword(t, own), "collection", collectionOf(t, newCollection(t)))
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	put(t, s, record("a.md", 4, "apple"))
	if loc := status(t, s).Location; strings.Contains(loc, password) || !strings.Contains(loc, "collection="+collectionOf(t, u)) {
		t.Errorf("Location = %q", loc)
	}
	host := p.addr()
	p.kill()
	_, err = s.Status(ctx)
	checkUnavailable(t, "Status on a dead server", err, host)
	err = s.Update(ctx, func(tx fonte.StoreTx) error { return tx.Put(ctx, record("b.md", 4, "banana")) })
	checkUnavailable(t, "Update on a dead server", err, host)
	_, err = s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"apple"}, K: 3})
	checkUnavailable(t, "LexicalTopK on a dead server", err, host)
	_, err = s.VectorTopK(ctx, fonte.VectorQuery{Vector: []float32{1, 0, 0, 0}, K: 3})
	checkUnavailable(t, "VectorTopK on a dead server", err, host)
	_, err = s.TermStats(ctx, []string{"apple"}, fonte.Filter{})
	checkUnavailable(t, "TermStats on a dead server", err, host)
	_, err = Open(ctx, u, fonte.StoreOptions{Settings: testSettings})
	checkUnavailable(t, "Open on a dead server", err, host)
}

func TestURL(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{
		"mysql://localhost/x",
		"postgres://localhost/x?collection=Bad-Name",
		"postgres://localhost/x?collection=" + strings.Repeat("a", 41),
		"postgres://localhost/x?hnsw_m=1",
		"postgres://localhost/x?hnsw_m=64&hnsw_ef_construction=100",
		"postgres://localhost/x?exact_below=-1",
		"postgres://localhost/x?lexical=lucene",
		"postgres://u:" + password + "@local host:5432/x",
	} {
		_, err := Open(ctx, bad, fonte.StoreOptions{})
		if err == nil {
			t.Errorf("Open(%q) succeeded", bad)
		} else if strings.Contains(err.Error(), password) {
			t.Errorf("Open(%q): %q shows the password", bad, err)
		}
	}
	c, err := parseURL("postgresql://me:" + password + "@db.example:6543/rag?sslmode=require&collection=hr_docs&hnsw_m=32&hnsw_ef_construction=128&exact_below=5&lexical=fts&password=" + password)
	if err != nil {
		t.Fatal(err)
	}
	if c.collection != "hr_docs" || c.hnswM != 32 || c.efConstruction != 128 || c.exactBelow != 5 || c.lexical != lexicalFTS || c.server != "db.example:6543" {
		t.Errorf("parsed %+v", c)
	}
	if strings.Contains(c.location, password) || !strings.Contains(c.location, "me@db.example:6543/rag") {
		t.Errorf("location %q", c.location)
	}
	for _, p := range []string{"collection", "hnsw_m", "hnsw_ef_construction", "exact_below", "lexical"} {
		if strings.Contains(c.connString, p+"=") {
			t.Errorf("pgx's connection string keeps %s: %q", p, c.connString)
		}
	}
	if !strings.Contains(c.connString, "sslmode=require") {
		t.Errorf("pgx's connection string lost sslmode: %q", c.connString)
	}
	if c, _ := parseURL("postgres://localhost/x"); c.collection != "default" || c.server != "localhost:5432" || c.exactBelow != DefaultExactBelow {
		t.Errorf("defaults: %+v", c)
	}
}

func TestCollectionsIsolated(t *testing.T) {
	ctx := context.Background()
	a := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	b := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	put(t, a, record("same.md", 4, "apple orchard"), record("only-a.md", 4, "apple"))
	put(t, b, record("same.md", 4, "banana grove"))
	docs, _ := b.Documents(ctx)
	if len(docs) != 1 || docs[0].ID != "same.md" {
		t.Fatalf("b's documents: %+v", docs)
	}
	if hits, _ := b.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"apple"}, K: 5}); len(hits) != 0 {
		t.Fatalf("b finds a's apples: %+v", hits)
	}
	if ts, _ := b.TermStats(ctx, []string{"apple", "banana"}, fonte.Filter{}); ts.Chunks != 1 || !slices.Equal(ts.DF, []int{0, 1}) {
		t.Fatalf("b's term stats: %+v", ts)
	}
	hits, _ := b.VectorTopK(ctx, fonte.VectorQuery{Vector: vecOf("apple orchard", 4), K: 5})
	if len(hits) != 1 || hits[0].Chunk.Text != "banana grove" {
		t.Fatalf("b's vector search: %+v", hits)
	}
	r, err := a.Document(ctx, "same.md")
	if err != nil || r.Chunks[0].Text != "apple orchard" {
		t.Fatalf("a's same.md: %+v, %v", r, err)
	}
	if st := status(t, a); st.Documents != 2 || st.Generation != 1 {
		t.Fatalf("a's status: %+v", st)
	}
}

// TestExtendedProtocol runs a round trip over pgx's extended protocol
// (binary vectors, server-side parameters) in its exec mode, whatever the
// test server: the store picks the simple protocol by itself on PGlite
// (see chooseProtocol), so against a PGlite named by
// FONTE_TEST_POSTGRES_URL this test alone takes the extended protocol
// there; one connection, so PGlite's shared session cannot mix two.
func TestExtendedProtocol(t *testing.T) {
	ctx := context.Background()
	u := withParams(t, newCollection(t), "default_query_exec_mode", "exec", "pool_max_conns", "1")
	s := open(t, u, fonte.StoreOptions{Settings: testSettings})
	r := record("x.md", 4, "vectors travel in binary", "second chunk")
	r.Doc.Tags = []string{"t"}
	r.Meta = map[string]string{"k": "v"}
	put(t, s, r)
	got, err := s.Document(ctx, "x.md")
	if err != nil || !slices.Equal(got.Vectors[1], r.Vectors[1]) || !slices.Equal(got.Terms[0], r.Terms[0]) || got.Meta["k"] != "v" {
		t.Fatalf("Document = %+v, %v", got, err)
	}
	hits, err := s.VectorTopK(ctx, fonte.VectorQuery{Vector: r.Vectors[1], K: 1, Filter: fonte.Filter{Tags: []string{"t"}, Prefixes: []string{"x"}}})
	if err != nil || len(hits) != 1 || hits[0].Chunk.Position != 1 {
		t.Fatalf("VectorTopK = %+v, %v", hits, err)
	}
	lex, err := s.LexicalTopK(ctx, fonte.LexicalQuery{Terms: []string{"binary"}, K: 1})
	if err != nil || len(lex) != 1 {
		t.Fatalf("LexicalTopK = %+v, %v", lex, err)
	}
	ts, err := s.TermStats(ctx, []string{"binary", "nothing"}, fonte.Filter{})
	if err != nil || !slices.Equal(ts.DF, []int{1, 0}) {
		t.Fatalf("TermStats = %+v, %v", ts, err)
	}
	if err := s.Purge(ctx); err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx fonte.StoreTx) error {
		v, err := tx.Vectors(ctx, []string{r.TextHashes[0]})
		if err != nil || !slices.Equal(v[0], r.Vectors[0]) {
			t.Errorf("Vectors = %v, %v", v, err)
		}
		_, err = tx.Delete(ctx, "x.md")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTimeRoundTrip checks instants survive to the nanosecond, before
// 1970 and at the zero time too.
func TestTimeRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t, newCollection(t), fonte.StoreOptions{Settings: testSettings})
	times := []time.Time{{}, time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Date(2030, 1, 2, 3, 4, 5, 6, time.FixedZone("X", 3600))}
	for i, tm := range times {
		r := record("t"+strconv.Itoa(i)+".md", 4, "x")
		r.Doc.Updated = tm
		put(t, s, r)
		got, err := s.Document(ctx, r.Doc.ID)
		if err != nil || !got.Doc.Updated.Equal(tm) {
			t.Errorf("Updated %v came back as %v (%v)", tm, got.Doc.Updated, err)
		}
	}
}

// serverHost is the test server's host:port.
func serverHost(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// proxy forwards TCP connections to the test server until kill, which
// closes its listener and every connection: to the store, the server is
// gone.
type proxy struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newProxy(t *testing.T) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{l: l}
	backend := serverHost(t)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", backend)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { io.Copy(b, c); b.Close() }()
			go func() { io.Copy(c, b); c.Close() }()
		}
	}()
	t.Cleanup(p.kill)
	return p
}

func (p *proxy) addr() string { return p.l.Addr().String() }

func (p *proxy) kill() {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
