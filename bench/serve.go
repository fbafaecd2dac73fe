package main

// The serve part: a bounded load run of the real fonte server (issue 9,
// item 8). The server runs in this process on 127.0.0.1:0 over a fresh
// embedded index of examples/handbook (built-in embedder, extractive
// answerer, no rate limit); for each level, N clients send searches and
// asks over real HTTP in a closed loop for -serve-duration while one
// writer uploads a small Markdown file and deletes it again, over and
// over. Every non-2xx answer and every transport error is an error; the
// run fails if there is any.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	fonteengine "github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
)

func init() { partOrder = append(partOrder, "serve") }

// serveLevel is one load level: clients readers, with or without the
// writer.
type serveLevel struct {
	clients int
	writes  bool
}

// serveLevels are the levels run, in order: 1, 8 and 32 clients with the
// writer, then 8 and 32 clients without it, to see what the writes cost
// the reads.
var serveLevels = []serveLevel{{1, true}, {8, true}, {32, true}, {8, false}, {32, false}}

// serveKinds are the request kinds, in table order.
var serveKinds = []string{"search", "ask", "upload", "delete"}

// kindStats are one kind's results in one level.
type kindStats struct {
	lat    []time.Duration
	errors int
	first  string // the first error
}

func (k *kindStats) add(o *kindStats) {
	k.lat = append(k.lat, o.lat...)
	k.errors += o.errors
	if k.first == "" {
		k.first = o.first
	}
}

type levelResult struct {
	level serveLevel
	wall  time.Duration
	cpu   time.Duration // the process's CPU time (server and clients)
	busy  float64       // the whole machine's busy cores (/proc/stat), -1 if unknown
	load  string        // the load average at the level's start
	kinds map[string]*kindStats
}

type serveResult struct {
	when      time.Time
	took      time.Duration
	indexTook time.Duration
	docs      int
	chunks    int
	questions int
	duration  time.Duration
	levels    []*levelResult
	logTail   string
}

func (r *serveResult) errors() int {
	n := 0
	for _, l := range r.levels {
		for _, k := range l.kinds {
			n += k.errors
		}
	}
	return n
}

// lockedBuffer collects the server's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// readQuestions reads the "question" field of every line of a JSONL file.
func readQuestions(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if q.Question != "" {
			qs = append(qs, q.Question)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no questions", path)
	}
	return qs, nil
}

// serve runs the serve part.
func (b *bench) serve() (*serveResult, error) {
	c := b.cfg
	ctx := context.Background()
	res := &serveResult{when: time.Now(), duration: c.serveDuration}
	docs, err := filepath.Abs(filepath.Join(c.examples, "handbook"))
	if err != nil {
		return nil, err
	}
	questions, err := readQuestions(filepath.Join(c.examples, "questions.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("serve: the handbook's questions (-examples DIR): %w", err)
	}
	res.questions = len(questions)
	dir, err := os.MkdirTemp(b.work, "serve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	settings := fonteengine.Settings{Store: filepath.Join(dir, "index")}
	e, err := fonteengine.Open(ctx, settings, fonteengine.OpenOptions{})
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	defer e.Close()
	t := time.Now()
	rep, err := e.Index(ctx, docs, nil)
	if err != nil {
		return nil, fmt.Errorf("serve: indexing %s: %w", docs, err)
	}
	res.indexTook = time.Since(t)
	res.docs, res.chunks = len(rep.Indexed), rep.Chunks
	b.logf("serve: indexed %s (%d documents, %d chunks) in %.1f s", docs, res.docs, res.chunks, res.indexTook.Seconds())

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	const readToken, adminToken = "bench-read-token", "bench-admin-token"
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	settings.Store = ""
	srv, err := server.New(e, server.Options{Addr: ln.Addr().String(), AdminToken: adminToken, Logger: log,
		DataDir: filepath.Join(dir, "data"), Template: settings, RateLimit: &server.RateLimit{},
		Tokens: []server.TokenDigest{{SHA256: server.Digest(readToken), Scope: server.ScopeRead}}})
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("serve: %w", err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- server.Serve(sctx, ln, srv, log) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			b.logf("serve: Serve: %v", err)
		}
		srv.Close()
	}()

	maxClients := 0
	for _, l := range serveLevels {
		maxClients = max(maxClients, l.clients)
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		MaxIdleConns: 2 * maxClients, MaxIdleConnsPerHost: 2 * maxClients, IdleConnTimeout: time.Minute}}
	defer client.CloseIdleConnections()
	lc := &loadClient{http: client, base: "http://" + ln.Addr().String(), read: readToken, admin: adminToken}

	// One search and one ask before the levels, so that a broken server
	// fails here rather than as a table of errors.
	for _, kind := range []string{"search", "ask"} {
		if err := lc.do(kind, questions[0]); err != nil {
			return nil, fmt.Errorf("serve: the first %s: %w; log: %s", kind, err, lastLines(logs.String(), 5))
		}
	}

	if c.serveProfile != "" {
		f, err := os.Create(c.serveProfile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
		// And where goroutines wait on locks, beside it.
		runtime.SetMutexProfileFraction(5)
		defer func() {
			runtime.SetMutexProfileFraction(0)
			if f, err := os.Create(c.serveProfile + ".mutex"); err == nil {
				pprof.Lookup("mutex").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	start := time.Now()
	for i, l := range serveLevels {
		lr := lc.level(l, c.serveDuration, questions, i)
		res.levels = append(res.levels, lr)
		var sum []string
		for _, k := range serveKinds {
			ks := lr.kinds[k]
			if ks == nil {
				continue
			}
			p50, p99 := percentiles(ks.lat)
			sum = append(sum, fmt.Sprintf("%s %.0f/s p50 %.1f p99 %.1f ms errors %d", k,
				float64(len(ks.lat))/lr.wall.Seconds(), ms(p50), ms(p99), ks.errors))
		}
		b.logf("serve: %d clients%s, process CPU %.2f cores, machine busy %.2f cores, load %s: %s", l.clients, map[bool]string{true: " + writer", false: ", reads only"}[l.writes],
			lr.cpu.Seconds()/lr.wall.Seconds(), lr.busy, lr.load, strings.Join(sum, "; "))
	}
	res.took = time.Since(start) + res.indexTook
	if res.errors() > 0 {
		res.logTail = lastLines(logs.String(), 5)
	}
	return res, nil
}

// loadClient sends the load's requests.
type loadClient struct {
	http              *http.Client
	base, read, admin string
}

// level runs one level: l.clients readers in a closed loop (3 searches to
// 1 ask) and, with l.writes, one writer uploading and deleting a document,
// for d.
func (lc *loadClient) level(l serveLevel, d time.Duration, questions []string, seq int) *levelResult {
	var wg sync.WaitGroup
	var mu sync.Mutex
	lr := &levelResult{level: l, kinds: map[string]*kindStats{}}
	merge := func(local map[string]*kindStats) {
		mu.Lock()
		defer mu.Unlock()
		for k, s := range local {
			if lr.kinds[k] == nil {
				lr.kinds[k] = &kindStats{}
			}
			lr.kinds[k].add(s)
		}
	}
	record := func(local map[string]*kindStats, kind string, took time.Duration, err error) {
		s := local[kind]
		if s == nil {
			s = &kindStats{}
			local[kind] = s
		}
		if err != nil {
			s.errors++
			if s.first == "" {
				s.first = err.Error()
			}
			return
		}
		s.lat = append(s.lat, took)
	}
	lr.load = loadavg()
	busy0, ticks0 := procStat()
	cpu0, start := cpuTime(), time.Now()
	deadline := start.Add(d)
	for i := range l.clients {
		wg.Go(func() {
			local := map[string]*kindStats{}
			for n := 0; time.Now().Before(deadline); n++ {
				kind := "search"
				if n%4 == 3 {
					kind = "ask"
				}
				q := questions[(i*7+n)%len(questions)]
				t := time.Now()
				err := lc.do(kind, q)
				record(local, kind, time.Since(t), err)
			}
			merge(local)
		})
	}
	if l.writes {
		wg.Go(func() {
			local := map[string]*kindStats{}
			id := fmt.Sprintf("bench-serve/note-%d.md", seq)
			for n := 0; time.Now().Before(deadline); n++ {
				body := fmt.Sprintf("# Load note %d\n\nThe bench writer uploaded this note (round %d) and deletes it again. "+
					"Printer paper is ordered through the facilities desk; the coffee machine on floor %d is descaled on Fridays.\n", n, n, n%7)
				t := time.Now()
				err := lc.upload(id, body)
				record(local, "upload", time.Since(t), err)
				if err != nil {
					continue
				}
				t = time.Now()
				err = lc.delete(id)
				record(local, "delete", time.Since(t), err)
			}
			merge(local)
		})
	}
	wg.Wait()
	lr.wall, lr.cpu = time.Since(start), cpuTime()-cpu0
	lr.busy = -1
	if busy1, ticks1 := procStat(); ticks1 > ticks0 && ticks0 > 0 {
		lr.busy = float64(busy1-busy0) / float64(ticks1-ticks0) * float64(runtime.NumCPU())
	}
	return lr
}

func (lc *loadClient) do(kind, q string) error {
	var body any
	switch kind {
	case "search":
		body = map[string]any{"query": q, "k": 10}
	case "ask":
		body = map[string]any{"question": q}
	default:
		return fmt.Errorf("unknown kind %q", kind)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, lc.base+"/v1/"+kind, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return lc.send(req, lc.read)
}

func (lc *loadClient) upload(id, text string) error {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", id)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(fw, text); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, lc.base+"/v1/documents", &buf)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return lc.send(req, lc.admin)
}

func (lc *loadClient) delete(id string) error {
	req, err := http.NewRequest(http.MethodDelete, lc.base+"/v1/documents/"+id, nil)
	if err != nil {
		return err
	}
	return lc.send(req, lc.admin)
}

// send sends req with the bearer token and reads the whole answer (so the
// connection is reused); any status but 2xx is an error.
func (lc *loadClient) send(req *http.Request, token string) error {
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := lc.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", req.Method, req.URL.Path, resp.Status, firstLine(string(body), errors.New("no body")))
	}
	return nil
}

// procStat returns the machine's busy and total CPU ticks from the first
// line of /proc/stat (busy: all but idle and iowait), or zeros.
func procStat() (busy, total uint64) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, 0
	}
	for i, v := range f[1:] {
		if i >= 8 { // guest time is already counted in user
			break
		}
		var n uint64
		if _, err := fmt.Sscan(v, &n); err != nil {
			return 0, 0
		}
		total += n
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, total
}

// percentiles returns the p50 and p99 of ds (nearest rank).
func percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return at(0.50), at(0.99)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// block renders the part's section of the report.
func (r *serveResult) block(b *bench) string {
	c, m := b.cfg, b.machine
	var sb strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&sb, format, args...) }
	w("### Serve: the HTTP server under load\n\n")
	w("Run %s by `cd bench && %s` on fonte %s; the part took %s.\n", r.when.UTC().Format("2006-01-02 15:04 MST"),
		strings.Join(append([]string{"go run ."}, c.args...), " "), b.commit, r.took.Round(time.Second))
	w("Machine: %s (family %s, model %s), %s cores, %s RAM, %s; %s; GOMAXPROCS %d.\n", m["cpu"], m["family"], m["model"],
		m["cores"], m["ram"], m["kernel"], m["go"], runtime.GOMAXPROCS(0))
	w("Index: examples/handbook, %d documents, %d chunks, built in %.1f s on an embedded store (built-in embedder, extractive answerer).\n\n",
		r.docs, r.chunks, r.indexTook.Seconds())
	w("| clients | writer | kind | requests/s | p50, ms | p99, ms | errors | process CPU, cores | machine busy, cores | load average at start |\n")
	w("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, l := range r.levels {
		first := true
		for _, k := range serveKinds {
			ks := l.kinds[k]
			if ks == nil {
				continue
			}
			p50, p99 := percentiles(ks.lat)
			cpu, busy, load := "", "", ""
			if first {
				cpu, busy, load = fmt.Sprintf("%.2f", l.cpu.Seconds()/l.wall.Seconds()), "—", l.load
				if l.busy >= 0 {
					busy = fmt.Sprintf("%.2f", l.busy)
				}
			}
			w("| %d | %s | %s | %.1f | %.1f | %.1f | %d | %s | %s | %s |\n", l.level.clients, map[bool]string{true: "yes", false: "no"}[l.level.writes],
				k, float64(len(ks.lat))/l.wall.Seconds(), ms(p50), ms(p99), ks.errors, cpu, busy, load)
			first = false
		}
	}
	w("\nEach level runs %s: the clients send, each in a closed loop over one shared `http.Client` (keep-alive), 3 searches (`POST /v1/search`, k 10) to 1 ask (`POST /v1/ask`), "+
		"cycling through the %d questions of examples/questions.jsonl, with a read token; with the writer, one more goroutine uploads a small Markdown note "+
		"(multipart `POST /v1/documents`, admin token) and deletes it (`DELETE /v1/documents/{id}`), over and over. "+
		"The server runs in the bench's process on 127.0.0.1 with no rate limit; requests/s count the answered requests over the level's wall time; "+
		"an error is a transport error or any status but 2xx. Process CPU is the bench process's CPU time over the level's wall time: the server and the clients together; "+
		"machine busy is the whole machine's non-idle CPU over the same time (/proc/stat), so the difference is what other processes took.\n",
		r.duration, r.questions)
	if n := r.errors(); n > 0 {
		w("\n**%d errors.**", n)
		for _, l := range r.levels {
			for _, k := range serveKinds {
				if ks := l.kinds[k]; ks != nil && ks.first != "" {
					w(" %d clients, %s: %s.", l.level.clients, k, ks.first)
				}
			}
		}
		if r.logTail != "" {
			w(" Server log: %s", r.logTail)
		}
		w("\n")
	}
	return sb.String()
}
