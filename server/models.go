package server

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fonte-rag/fonte"
)

// ModelMetrics time the calls fonte makes to model servers (embedding,
// generation, reranking) and count their errors. Wrap the clients with it
// before opening the engine, and pass it in Options so /metrics shows it.
type ModelMetrics struct {
	latency *prometheus.HistogramVec
	errors  *prometheus.CounterVec
}

// NewModelMetrics makes the collectors.
func NewModelMetrics() *ModelMetrics {
	return &ModelMetrics{
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fonte_model_request_duration_seconds",
			Help:    "Time of a call to a model server, by kind (embed, generate, rerank) and model.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"kind", "model"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fonte_model_errors_total",
			Help: "Calls to a model server that failed, by kind and model.",
		}, []string{"kind", "model"}),
	}
}

func (m *ModelMetrics) observe(kind, model string, start time.Time, err error) {
	m.latency.WithLabelValues(kind, model).Observe(time.Since(start).Seconds())
	if err != nil {
		m.errors.WithLabelValues(kind, model).Inc()
	}
}

// Embedder wraps e so its calls are measured; a nil e stays nil.
func (m *ModelMetrics) Embedder(e fonte.Embedder) fonte.Embedder {
	if e == nil {
		return nil
	}
	return &measuredEmbedder{Embedder: e, m: m}
}

// Generator wraps g so its calls are measured; a nil g stays nil.
func (m *ModelMetrics) Generator(g fonte.Generator) fonte.Generator {
	if g == nil {
		return nil
	}
	return &measuredGenerator{Generator: g, m: m}
}

// Reranker wraps r so its calls are measured; a nil r stays nil.
func (m *ModelMetrics) Reranker(r fonte.Reranker) fonte.Reranker {
	if r == nil {
		return nil
	}
	return &measuredReranker{Reranker: r, m: m}
}

type measuredEmbedder struct {
	fonte.Embedder
	m *ModelMetrics
}

func (e *measuredEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	start := time.Now()
	v, err := e.Embedder.Embed(ctx, texts)
	e.m.observe("embed", e.Model(), start, err)
	return v, err
}

// Probe forwards to a remote embedder's dimension probe (engine.Open asks
// one that does not know its dimension yet).
func (e *measuredEmbedder) Probe(ctx context.Context) (int, error) {
	if p, ok := e.Embedder.(interface {
		Probe(context.Context) (int, error)
	}); ok {
		start := time.Now()
		d, err := p.Probe(ctx)
		e.m.observe("embed", e.Model(), start, err)
		return d, err
	}
	return e.Dimension(), nil
}

type measuredGenerator struct {
	fonte.Generator
	m *ModelMetrics
}

func (g *measuredGenerator) Generate(ctx context.Context, messages []fonte.Message, onDelta func(string)) (string, error) {
	start := time.Now()
	out, err := g.Generator.Generate(ctx, messages, onDelta)
	g.m.observe("generate", g.Model(), start, err)
	return out, err
}

type measuredReranker struct {
	fonte.Reranker
	m *ModelMetrics
}

func (r *measuredReranker) Rerank(ctx context.Context, query string, texts []string) ([]float64, error) {
	start := time.Now()
	out, err := r.Reranker.Rerank(ctx, query, texts)
	r.m.observe("rerank", r.Model(), start, err)
	return out, err
}
