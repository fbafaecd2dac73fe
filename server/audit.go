package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/engine"
)

// The audit log answers "who saw what": one JSON line per request that
// reads documents, naming the token (by a prefix of its digest, never the
// token), the collection, the route, the question and the documents the
// response returned or cited. Handlers note what they returned in a
// record the middleware put in the request's context; the middleware
// writes the record once the response has ended, so no handler writes
// the file and a failed write never reaches the client.

// Defaults of AuditOptions.
const (
	DefaultAuditMaxSize = 100 << 20
	DefaultAuditKeep    = 5
)

// AuditOptions configure the audit log.
type AuditOptions struct {
	// Path is the log file; empty: no audit log.
	Path string
	// MaxSize is the size in bytes past which the file is rotated
	// (0: DefaultAuditMaxSize).
	MaxSize int64
	// Keep is how many rotated files are kept beside it, Path.1 the
	// newest (0: DefaultAuditKeep; negative: none).
	Keep int
}

// AuditRecord is one line of the audit log.
type AuditRecord struct {
	Time time.Time `json:"time"`
	// Token names the caller: "sha256:" and the first 12 hex digits of
	// the token's digest, "public" for a request without a token under
	// PublicRead, "none" without one, "unknown" for a token the server
	// does not accept.
	Token      string `json:"token"`
	Remote     string `json:"remote"`
	Route      string `json:"route"`
	Collection string `json:"collection,omitempty"`
	Status     int    `json:"status"`
	// Tool is the MCP tool called, for /mcp.
	Tool string `json:"tool,omitempty"`
	// Query is the question or query asked, the document or passage id
	// read, or the question file evaluated.
	Query string `json:"query,omitempty"`
	// Docs are the ids of the documents whose text the response
	// returned or cited, without repeats, in the response's order.
	Docs []string `json:"docs"`
	// Abstained is set for answers.
	Abstained *bool `json:"abstained,omitempty"`

	mu     sync.Mutex
	filled bool // a handler noted what it returned
}

// auditKey is the request context key of the request's *AuditRecord.
type auditKey struct{}

// auditOf is the request's audit record, nil when there is no audit log.
func auditOf(r *http.Request) *AuditRecord {
	rec, _ := r.Context().Value(auditKey{}).(*AuditRecord)
	return rec
}

// auditRead notes, at the end of a handler, what the response returned:
// the collection, the query (or id) and the documents. A no-op without an
// audit log.
func auditRead(r *http.Request, collection, query string, docs ...string) {
	auditOf(r).note(collection, "", query, docs, nil)
}

// auditHits notes a search's hits.
func auditHits(r *http.Request, collection, query string, hits []fonte.Hit) {
	docs := make([]string, len(hits))
	for i, h := range hits {
		docs[i] = h.Chunk.DocID
	}
	auditOf(r).note(collection, "", query, docs, nil)
}

// auditAnswer notes an answer: every citation's document (an abstention
// still returns its nearest passages) and whether it abstained.
func auditAnswer(r *http.Request, collection, question string, a *fonte.Answer) {
	docs := make([]string, len(a.Citations))
	for i, c := range a.Citations {
		docs[i] = c.DocID
	}
	abstained := a.Abstained
	auditOf(r).note(collection, "", question, docs, &abstained)
}

// note adds what a handler returned to rec; several notes (MCP tool calls
// in one request) add up.
func (rec *AuditRecord) note(collection, tool, query string, docs []string, abstained *bool) {
	if rec == nil {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.filled = true
	if collection != "" {
		rec.Collection = collection
	}
	if tool != "" {
		rec.Tool = tool
	}
	if query != "" {
		rec.Query = query
	}
	for _, d := range docs {
		if d != "" && !slices.Contains(rec.Docs, d) {
			rec.Docs = append(rec.Docs, d)
		}
	}
	if abstained != nil {
		rec.Abstained = abstained
	}
}

// readRoutes are the routes that read documents, as METHOD and path after
// /v1 or /v1/collections/{collection}. Their requests are logged whatever
// their outcome, refusals included; /mcp only when a tool was called or
// the request was refused.
var readRoutes = map[string]bool{
	"POST /search": true, "POST /ask": true, "POST /chat": true,
	"GET /documents": true, "GET /documents/{id...}": true, "GET /passages/{id...}": true,
	"POST /eval": true, "POST /chat/completions": true,
}

// readsDocuments reports whether a request to pattern, answered with
// status, is one the audit log records.
func readsDocuments(pattern string, status int) bool {
	method, path, _ := strings.Cut(pattern, " ")
	if path == "/mcp" {
		return status >= 400
	}
	if rest, ok := strings.CutPrefix(path, "/v1/collections/{collection}"); ok {
		path = rest
	} else {
		path = strings.TrimPrefix(path, "/v1")
	}
	return readRoutes[method+" "+path]
}

// auditLog is the open audit file: appended to by one writer at a time,
// rotated by size.
type auditLog struct {
	mu     sync.Mutex
	opts   AuditOptions
	f      *os.File // nil after a failed rotation or once closed
	size   int64
	closed bool
	// regular is false for a device or pipe, which cannot be synced.
	regular bool
}

// openAuditLog opens (or creates) the audit file for appending, readable
// by its owner only.
func openAuditLog(o AuditOptions) (*auditLog, error) {
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultAuditMaxSize
	}
	if o.Keep == 0 {
		o.Keep = DefaultAuditKeep
	}
	a := &auditLog{opts: o}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *auditLog) open() error {
	f, err := os.OpenFile(a.opts.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	info, err := f.Stat()
	if err == nil && info.Mode().IsRegular() && info.Mode().Perm() != 0o600 {
		// A file made earlier with wider permissions is narrowed: the
		// log names who read what.
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("audit log: %w", err)
	}
	a.f, a.size, a.regular = f, info.Size(), info.Mode().IsRegular()
	return nil
}

var errAuditClosed = errors.New("audit log: closed")

// write appends one line, rotating first when it would take the file past
// MaxSize (a file is never left empty for a line over the limit).
func (a *auditLog) write(line []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return errAuditClosed
	}
	if a.f == nil {
		if err := a.open(); err != nil {
			return err
		}
	}
	if a.size > 0 && a.size+int64(len(line)) > a.opts.MaxSize {
		if err := a.rotate(); err != nil {
			return err
		}
	}
	n, err := a.f.Write(line)
	a.size += int64(n)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// rotate moves Path to Path.1 (Path.1 to Path.2 …, the file past Keep
// overwritten) and starts a new file.
func (a *auditLog) rotate() error {
	if err := a.f.Close(); err != nil {
		a.f = nil
		return fmt.Errorf("audit log: %w", err)
	}
	a.f = nil
	old := func(i int) string { return fmt.Sprintf("%s.%d", a.opts.Path, i) }
	var err error
	if a.opts.Keep < 0 {
		err = os.Remove(a.opts.Path)
	} else {
		for i := a.opts.Keep; i >= 2 && err == nil; i-- {
			if err = os.Rename(old(i-1), old(i)); errors.Is(err, os.ErrNotExist) {
				err = nil // fewer old files than Keep so far
			}
		}
		if err == nil {
			err = os.Rename(a.opts.Path, old(1))
		}
	}
	if err != nil {
		// Go on appending to the file as it is rather than lose records.
		return errors.Join(fmt.Errorf("audit log: rotating: %w", err), a.open())
	}
	return a.open()
}

// close syncs the file to disk and closes it; later writes fail.
func (a *auditLog) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.f == nil {
		return nil
	}
	var err error
	if a.regular {
		err = a.f.Sync()
	}
	err = errors.Join(err, a.f.Close())
	a.f = nil
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// audit wraps h so every request that reads documents leaves one line in
// the audit log once its response has ended. It must be outside every
// wrapper that reads r.Pattern, because the record travels in a copy of
// the request.
func (s *Server) audit(h http.Handler) http.Handler {
	if s.auditLog == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &AuditRecord{}
		r = r.WithContext(context.WithValue(r.Context(), auditKey{}, rec))
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if !rec.filled && !readsDocuments(r.Pattern, sw.status) {
			return
		}
		rec.Time, rec.Route, rec.Status = time.Now().UTC(), r.Pattern, sw.status
		rec.Token, rec.Remote = s.tokenID(r), clientIP(r)
		if rec.Collection == "" {
			rec.Collection = s.routeCollection(r)
		}
		if rec.Docs == nil {
			rec.Docs = []string{}
		}
		line, err := json.Marshal(rec)
		if err == nil {
			err = s.auditLog.write(append(line, '\n'))
		}
		if err != nil {
			// The response has been sent: the failure is the operator's
			// to see, never the client's. err names the file, not the token.
			s.log.Error("audit log: a record was not written", "route", r.Pattern, "err", err)
		}
	})
}

// tokenID names the request's caller for the audit log without the token:
// a prefix of its digest, long enough to tell configured tokens apart.
func (s *Server) tokenID(r *http.Request) string {
	tok, ok := bearer(r)
	switch {
	case !ok && s.publicRead:
		return "public"
	case !ok:
		return "none"
	}
	gs := s.keys.lookup(tok)
	if len(gs) == 0 {
		return "unknown"
	}
	return "sha256:" + gs[0].key[:12]
}

// auditListed notes a document list.
func auditListed(r *http.Request, collection string, docs []engine.DocStatus) {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	auditOf(r).note(collection, "", "", ids, nil)
}

// auditMCP notes each MCP tool call of a request in rec: the tool, its
// collection, its query, question or document id, and the documents its
// structured result carries.
func auditMCP(rec *AuditRecord) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			call, ok := req.(*sdk.CallToolRequest)
			if rec == nil || !ok || call.Params == nil {
				return res, err
			}
			var in struct{ Query, Question, ID, Collection string }
			_ = json.Unmarshal(call.Params.Arguments, &in)
			if in.Collection == "" {
				in.Collection = DefaultCollection
			}
			var out struct {
				ID        string
				Abstained *bool
				Passages  []struct{ Doc string }
				Citations []struct{ Doc string }
			}
			if tr, ok := res.(*sdk.CallToolResult); ok && err == nil && !tr.IsError {
				if raw, jerr := json.Marshal(tr.StructuredContent); jerr == nil {
					_ = json.Unmarshal(raw, &out)
				}
			}
			docs := []string{out.ID}
			for _, p := range append(out.Passages, out.Citations...) {
				docs = append(docs, p.Doc)
			}
			rec.note(in.Collection, call.Params.Name, in.Query+in.Question+in.ID, docs, out.Abstained)
			return res, err
		}
	}
}
