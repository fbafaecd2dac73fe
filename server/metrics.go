package server

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are one server's Prometheus collectors, in a registry of its own
// so several servers (tests) never share counters.
type metrics struct {
	reg         *prometheus.Registry
	latency     *prometheus.HistogramVec
	abstentions *prometheus.CounterVec
	documents   *prometheus.GaugeVec
	chunks      *prometheus.GaugeVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fonte_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route", "status"}),
		abstentions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fonte_abstentions_total",
			Help: "Questions fonte declined to answer because no passage reached the floor, by collection.",
		}, []string{"collection"}),
		documents: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "fonte_documents", Help: "Documents in each open collection."}, []string{"collection"}),
		chunks:    prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "fonte_chunks", Help: "Chunks in each open collection."}, []string{"collection"}),
	}
	m.reg.MustRegister(m.latency, m.abstentions, m.documents, m.chunks,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// statusWriter remembers the status a handler sent and counts the body
// bytes. Unwrap lets http.ResponseController reach the connection's Flush
// for SSE.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// instrument times every request by the pattern the mux matched (never the
// raw path, whose ids would make the label set unbounded).
func (m *metrics) instrument(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		m.latency.WithLabelValues(route, strconv.Itoa(sw.status)).Observe(time.Since(start).Seconds())
	})
}

// handleMetrics refreshes the collection gauges, then serves the registry.
// The metrics count every collection's documents, hidden ones included,
// and every caller's traffic, so only an admin token that no collection
// limit narrows may read them.
func (s *Server) handleMetrics() http.HandlerFunc {
	prom := promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
	return func(w http.ResponseWriter, r *http.Request) {
		gs, _ := r.Context().Value(grantKey{}).(grants)
		if !slices.ContainsFunc(gs, func(g grant) bool { return g.scope == ScopeAdmin && g.collections == nil }) {
			writeProblem(w, newProblem(http.StatusForbidden, "scope-required",
				"/metrics counts every collection: it needs an admin token not limited to some collections", "Authorization"))
			return
		}
		for _, c := range s.reg.opened() {
			if st, err := c.Engine.Status(r.Context()); err == nil {
				s.metrics.documents.WithLabelValues(c.Name).Set(float64(st.Documents))
				s.metrics.chunks.WithLabelValues(c.Name).Set(float64(st.Chunks))
			} else {
				s.log.Error("metrics: reading the status", "collection", c.Name, "err", err)
			}
		}
		prom.ServeHTTP(w, r)
	}
}
