// Package httpc is the HTTP plumbing fonte's model-server clients share:
// JSON requests with a per-attempt timeout, retries with exponential backoff
// and jitter on 429, 5xx and connection failures, Retry-After, streamed
// answers read line by line, and errors that name the server URL, the HTTP
// status and the server's own message without ever repeating an API key.
package httpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// UserAgent is sent with every request, so server logs can tell fonte's
// traffic apart.
const UserAgent = "fonte"

// Defaults for the retry settings of Options.
const (
	DefaultMaxAttempts = 4
	DefaultBackoffBase = 500 * time.Millisecond
	DefaultBackoffMax  = 30 * time.Second
)

const (
	// maxErrorBody bounds how much of a failed answer is read: enough for
	// any server's message, never a whole HTML error page.
	maxErrorBody = 64 << 10
	// maxBody bounds a buffered JSON answer. A batch of 256 vectors of 4096
	// floats is about 20 MiB of JSON; this leaves room without letting a
	// broken server exhaust memory.
	maxBody = 256 << 20
	// maxLine bounds one line of a streamed answer.
	maxLine = 8 << 20
)

// Options are the HTTP settings every fonte client accepts. The zero value
// asks for the defaults.
type Options struct {
	// Timeout bounds one attempt: connecting, sending, and reading the
	// answer; for a streamed answer, the whole stream. Zero means the
	// client's own default (documented by each client). An attempt that
	// times out is not retried: a server too slow once is usually too slow
	// again, and retrying would multiply the wait by MaxAttempts.
	Timeout time.Duration
	// MaxAttempts is how many times a request is tried in all, counting
	// the first; 1 disables retries. Zero means DefaultMaxAttempts.
	MaxAttempts int
	// BackoffBase is the wait before the first retry; each further retry
	// doubles it, up to BackoffMax, and the wait actually slept is drawn
	// uniformly from its upper half so clients retrying together spread
	// out. Zero means DefaultBackoffBase.
	BackoffBase time.Duration
	// BackoffMax caps the backoff. It also caps Retry-After: a server that
	// asks for a longer pause gets an immediate error saying so rather
	// than a client that hangs. Zero means DefaultBackoffMax.
	BackoffMax time.Duration
	// APIKey, when set, is sent as "Authorization: Bearer <key>". It never
	// appears in errors.
	APIKey string
	// HTTPClient sends the requests; nil means a private client over
	// http.DefaultTransport. Its own Timeout, if any, applies as well.
	HTTPClient *http.Client
}

// Error is a failed exchange with a model server. Cancellation of the
// caller's context is never an Error: the context's own error is returned.
type Error struct {
	Method     string // "POST"
	URL        string // the endpoint, without user info or query
	StatusCode int    // the HTTP status, 0 when no answer arrived
	Status     string // e.g. "429 Too Many Requests", "" when no answer arrived
	Message    string // the server's own message, or what went wrong locally
	Attempts   int    // how many attempts were made
	Timeout    bool   // the attempt exceeded Options.Timeout
	Err        error  // the underlying cause, if any
}

// Error formats the failure as "POST <url>: <status>: <message>".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.URL)
	if e.Status != "" {
		b.WriteString(": ")
		b.WriteString(e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Client sends JSON requests to one kind of server with the retry policy of
// its Options. It is safe for concurrent use.
type Client struct {
	timeout     time.Duration
	maxAttempts int
	base, max   time.Duration
	apiKey      string
	hc          *http.Client
	// sleep waits between attempts; tests replace it to observe the waits.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a client for o, using defaultTimeout when o.Timeout is zero.
func New(o Options, defaultTimeout time.Duration) *Client {
	c := &Client{
		timeout:     o.Timeout,
		maxAttempts: o.MaxAttempts,
		base:        o.BackoffBase,
		max:         o.BackoffMax,
		apiKey:      o.APIKey,
		hc:          o.HTTPClient,
		sleep:       sleepCtx,
	}
	if c.timeout <= 0 {
		c.timeout = defaultTimeout
	}
	if c.maxAttempts <= 0 {
		c.maxAttempts = DefaultMaxAttempts
	}
	if c.base <= 0 {
		c.base = DefaultBackoffBase
	}
	if c.max <= 0 {
		c.max = DefaultBackoffMax
	}
	if c.max < c.base {
		c.max = c.base
	}
	if c.hc == nil {
		c.hc = &http.Client{}
	}
	return c
}

// CheckBaseURL validates a server base URL and returns it without a
// trailing slash, ready for an endpoint path to be appended.
func CheckBaseURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		// url.Error repeats the raw URL, password and all; keep the cause.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("invalid base URL %q: %v", Redact(base), err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("invalid base URL %q: want http:// or https:// and a host", Redact(base))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		// An endpoint path is appended to the base; a query would swallow it.
		return "", fmt.Errorf("invalid base URL %q: it must not have a query or fragment", Redact(base))
	}
	return strings.TrimRight(base, "/"), nil
}

// PostJSON posts in as JSON to endpoint and decodes the answer into out.
// Failures are *Error values, except that cancellation of ctx returns
// ctx.Err().
func (c *Client) PostJSON(ctx context.Context, endpoint string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encoding request for %s: %w", Redact(endpoint), err)
	}
	a, err := c.send(ctx, endpoint, body, "application/json", true)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(a.data, out); err != nil {
		return &Error{
			Method: http.MethodPost, URL: Redact(endpoint),
			StatusCode: a.resp.StatusCode, Status: a.resp.Status,
			Message:  c.scrub("malformed JSON answer: " + err.Error() + snippet(a.data)),
			Attempts: a.attempts, Err: err,
		}
	}
	return nil
}

// PostStream posts in as JSON to endpoint and returns the answer's body for
// reading line by line. Retries happen only until a successful status
// arrives: once a stream has begun, repeating the request would repeat its
// text. The caller must Close the stream.
func (c *Client) PostStream(ctx context.Context, endpoint string, in any, accept string) (*Stream, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encoding request for %s: %w", Redact(endpoint), err)
	}
	a, err := c.send(ctx, endpoint, body, accept, false)
	if err != nil {
		return nil, err
	}
	return &Stream{
		c:      c,
		ctx:    ctx,
		actx:   a.actx,
		cancel: a.cancel,
		resp:   a.resp,
		r:      bufio.NewReaderSize(a.resp.Body, 64<<10),
		url:    Redact(endpoint),
		tries:  a.attempts,
	}, nil
}

// answer is a successful response: buffered whole, or left open for
// streaming with the attempt's context still live.
type answer struct {
	resp     *http.Response
	data     []byte
	actx     context.Context
	cancel   context.CancelFunc
	attempts int
}

// send runs the retry loop and returns the first 2xx answer.
func (c *Client) send(ctx context.Context, endpoint string, body []byte, accept string, buffer bool) (*answer, error) {
	for attempt := 1; ; attempt++ {
		a, retryAfter, failure := c.attempt(ctx, endpoint, body, accept, buffer)
		if a != nil {
			a.attempts = attempt
			return a, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var e *Error
		if !errors.As(failure, &e) {
			return nil, failure
		}
		e.Attempts = attempt
		if !retryable(e) || attempt >= c.maxAttempts {
			return nil, e
		}
		wait := c.backoff(attempt)
		if retryAfter >= 0 {
			if retryAfter > c.max {
				e.Message += fmt.Sprintf(" (server asked to retry after %v, more than the %v this client waits)", retryAfter, c.max)
				return nil, e
			}
			wait = retryAfter
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Sleeping past the caller's deadline only to fail then helps no one.
			return nil, e
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// attempt makes one request. It returns the answer, or the Retry-After the
// server asked for (-1 when none) and the failure.
func (c *Client) attempt(ctx context.Context, endpoint string, body []byte, accept string, buffer bool) (*answer, time.Duration, error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	req, err := http.NewRequestWithContext(actx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		cancel()
		return nil, -1, fmt.Errorf("building request for %s: %v", Redact(endpoint), err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", UserAgent)
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		cancel()
		return nil, -1, c.transportError(actx, endpoint, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		cancel()
		msg := ServerMessage(data)
		if msg == "" {
			msg = "(no message)"
		}
		return nil, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), &Error{
			Method: http.MethodPost, URL: Redact(endpoint),
			StatusCode: resp.StatusCode, Status: resp.Status, Message: c.scrub(msg),
		}
	}
	if !buffer {
		return &answer{resp: resp, actx: actx, cancel: cancel}, -1, nil
	}
	defer cancel()
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		// A connection lost mid-answer is a connection failure like any other.
		return nil, -1, c.transportError(actx, endpoint, err)
	}
	if len(data) > maxBody {
		return nil, -1, &Error{
			Method: http.MethodPost, URL: Redact(endpoint),
			StatusCode: resp.StatusCode, Status: resp.Status,
			Message: fmt.Sprintf("answer larger than %d bytes", maxBody),
		}
	}
	return &answer{resp: resp, data: data}, -1, nil
}

// transportError describes a request that got no complete answer.
func (c *Client) transportError(actx context.Context, endpoint string, err error) error {
	e := &Error{Method: http.MethodPost, URL: Redact(endpoint)}
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		e.Timeout = true
		e.Err = context.DeadlineExceeded
		e.Message = fmt.Sprintf("no complete answer within %v (timeout)", c.timeout)
		return e
	}
	// url.Error repeats the whole URL, query included; keep only the cause.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	e.Err = err
	e.Message = c.scrub("connection failed: " + err.Error())
	return e
}

// retryable reports whether a failure may pass if the request is repeated.
func retryable(e *Error) bool {
	if e.Timeout {
		return false
	}
	switch {
	case e.StatusCode == 0:
		return true // no answer at all: connection refused, reset, ...
	case e.StatusCode == http.StatusTooManyRequests:
		return true
	case e.StatusCode == http.StatusNotImplemented:
		return false // the endpoint does not exist there; it will not appear
	case e.StatusCode >= 500 && e.StatusCode <= 599:
		return true
	}
	return false
}

// backoff is the jittered wait after the given failed attempt (1-based).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.base
	for i := 1; i < attempt && d < c.max; i++ {
		d *= 2
	}
	if d > c.max || d <= 0 {
		d = c.max
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

// parseRetryAfter reads a Retry-After header, in seconds or as an HTTP
// date; -1 means absent or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return -1
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return -1
		}
		const ceiling = 1 << 20 // seconds; keeps the multiplication in range
		return time.Duration(min(n, ceiling)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return -1
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// scrub removes the API key from text that came from elsewhere: a server
// that echoes the Authorization header must not put the key in a log.
func (c *Client) scrub(s string) string {
	if c.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, "[redacted]")
}

// Redact drops user info and query from a URL: either may carry a secret,
// and neither helps to find the server.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Unparseable: cut query and user info by hand.
		s := raw
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
		scheme, rest, ok := strings.Cut(s, "://")
		if !ok {
			scheme, rest = "", s
		}
		host, path, _ := strings.Cut(rest, "/")
		if k := strings.LastIndexByte(host, '@'); k >= 0 {
			host = host[k+1:]
		}
		s = host
		if path != "" || strings.Contains(rest, "/") {
			s += "/" + path
		}
		if ok {
			s = scheme + "://" + s
		}
		return s
	}
	u.User = nil
	if k := strings.LastIndexByte(u.Opaque, '@'); k >= 0 {
		u.Opaque = u.Opaque[k+1:] // "user:pw@host" without a scheme parses as opaque
	}
	u.RawQuery = ""
	u.ForceQuery = false
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// ServerMessage extracts the human-readable message from an error body in
// any of the shapes model servers use: {"error":"..."} (Ollama, TEI, with
// TEI's "error_type"), {"error":{"message","type","code"}} (OpenAI),
// {"message":"..."} (Cohere), {"detail":...} (Jina and other FastAPI
// servers). Anything else is returned as trimmed text, shortened.
func ServerMessage(body []byte) string {
	var v struct {
		Error     json.RawMessage `json:"error"`
		ErrorType string          `json:"error_type"`
		Message   string          `json:"message"`
		Detail    json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(body, &v); err == nil {
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			if v.ErrorType != "" {
				s += " (" + v.ErrorType + ")"
			}
			return s
		}
		var o struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
			var extra []string
			if o.Type != "" {
				extra = append(extra, "type "+o.Type)
			}
			if c := strings.Trim(string(o.Code), `"`); c != "" && c != "null" {
				extra = append(extra, "code "+c)
			}
			if len(extra) > 0 {
				return o.Message + " (" + strings.Join(extra, ", ") + ")"
			}
			return o.Message
		}
		if v.Message != "" {
			return v.Message
		}
		if json.Unmarshal(v.Detail, &s) == nil && s != "" {
			return s
		}
		if len(v.Detail) > 0 && string(v.Detail) != "null" {
			return shorten(string(v.Detail))
		}
	}
	return shorten(string(body))
}

// shorten collapses whitespace and cuts text to a length fit for one line.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 300
	if len(s) > limit {
		cut := limit
		for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// snippet quotes the start of a malformed answer so the error shows what
// came back.
func snippet(data []byte) string {
	if len(data) == 0 {
		return " (empty answer)"
	}
	return fmt.Sprintf(" (answer began %q)", shorten(string(data[:min(len(data), 80)])))
}

// Stream is a successful answer being read line by line.
type Stream struct {
	c      *Client
	ctx    context.Context // the caller's
	actx   context.Context // the attempt's, to tell a timeout from a cancellation
	cancel context.CancelFunc
	resp   *http.Response
	r      *bufio.Reader
	url    string
	tries  int
}

// ReadLine returns the next line without its line ending, or io.EOF after
// the last one. It returns ctx.Err() as soon as the caller's context is
// done, and an *Error on a timeout or a broken connection.
func (s *Stream) ReadLine() ([]byte, error) {
	var line []byte
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		chunk, err := s.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, s.Fail(fmt.Sprintf("streamed line longer than %d bytes", maxLine))
		}
		switch {
		case err == nil:
			return trimEOL(line), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if cerr := s.ctx.Err(); cerr != nil {
				return nil, cerr
			}
			if len(line) > 0 {
				return trimEOL(line), nil
			}
			if errors.Is(s.actx.Err(), context.DeadlineExceeded) {
				return nil, s.timeout()
			}
			return nil, io.EOF
		default:
			if cerr := s.ctx.Err(); cerr != nil {
				return nil, cerr
			}
			if errors.Is(s.actx.Err(), context.DeadlineExceeded) {
				return nil, s.timeout()
			}
			e := s.fail(s.c.scrub("stream broken: " + err.Error()))
			e.Err = err
			return nil, e
		}
	}
}

// Fail returns an *Error about this stream with the given message, for
// answers that arrived but make no sense or report a failure in-band.
func (s *Stream) Fail(message string) error { return s.fail(s.c.scrub(message)) }

func (s *Stream) fail(message string) *Error {
	return &Error{
		Method: http.MethodPost, URL: s.url,
		StatusCode: s.resp.StatusCode, Status: s.resp.Status,
		Message: message, Attempts: s.tries,
	}
}

func (s *Stream) timeout() error {
	e := s.fail(fmt.Sprintf("stream not finished within %v (timeout)", s.c.timeout))
	e.Timeout = true
	e.Err = context.DeadlineExceeded
	return e
}

// Close releases the connection.
func (s *Stream) Close() error {
	err := s.resp.Body.Close()
	s.cancel()
	return err
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
