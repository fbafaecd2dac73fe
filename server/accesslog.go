package server

import (
	"log/slog"
	"net/http"
	"time"
)

// logRequests wraps h so every request leaves one line in the log once its
// response has ended: method, route pattern (never the raw path, which may
// name a document the log's reader should not learn of), status, bytes
// sent, duration and the caller as the audit log names it (a prefix of the
// token's digest, never the token). The health checks log at DEBUG while
// they succeed, so a prober every few seconds does not bury the rest. It
// must sit inside audit and outside the mux, reading the request the mux
// sets Pattern on.
func (s *Server) logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		level := slog.LevelInfo
		if (route == "GET /healthz" || route == "GET /readyz") && sw.status < 400 {
			level = slog.LevelDebug
		}
		if !s.log.Enabled(r.Context(), level) {
			return
		}
		s.log.LogAttrs(r.Context(), level, "request",
			slog.String("method", r.Method), slog.String("route", route), slog.Int("status", sw.status),
			slog.Int64("bytes", sw.bytes), slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.String("token", s.tokenID(r)))
	})
}
