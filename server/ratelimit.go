package server

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit is the request rate each token may sustain, with the burst it
// may reach; a zero Rate turns limiting off.
type RateLimit struct {
	Rate  float64 `json:"rate" yaml:"rate"`   // requests per second
	Burst int     `json:"burst" yaml:"burst"` // requests at once
}

// DefaultRateLimit lets one token run an interactive page and a script at
// once, and stops a runaway loop before it starves everyone else.
var DefaultRateLimit = RateLimit{Rate: 50, Burst: 100}

// limiters holds a token bucket per caller: a token (by digest) or, for
// public reads, a client address.
type limiters struct {
	limit RateLimit
	mu    sync.Mutex
	by    map[string]*limiter
	swept time.Time
}

type limiter struct {
	*rate.Limiter
	used time.Time
}

// idleAfter is how long a bucket may go unused before it is dropped (it
// is full again by then anyway).
const idleAfter = 10 * time.Minute

func newLimiters(l RateLimit) *limiters {
	return &limiters{limit: l, by: map[string]*limiter{}}
}

// reserve takes one request from key's bucket; when the bucket is empty it
// returns how long until one is free.
func (ls *limiters) reserve(key string, now time.Time) (bool, time.Duration) {
	if ls.limit.Rate <= 0 {
		return true, 0
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if now.Sub(ls.swept) > idleAfter {
		for k, l := range ls.by {
			if now.Sub(l.used) > idleAfter {
				delete(ls.by, k)
			}
		}
		ls.swept = now
	}
	l := ls.by[key]
	if l == nil {
		l = &limiter{Limiter: rate.NewLimiter(rate.Limit(ls.limit.Rate), max(ls.limit.Burst, 1))}
		ls.by[key] = l
	}
	l.used = now
	r := l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// allow spends one request of g's rate; when none is left it answers 429
// with Retry-After (whole seconds, rounded up) and reports false.
func (s *Server) allow(w http.ResponseWriter, g grant) bool {
	ok, wait := s.limits.reserve(g.key, time.Now())
	if ok {
		return true
	}
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	writeProblem(w, newProblem(http.StatusTooManyRequests, "rate-limited",
		fmt.Sprintf("this token is over its rate of %g requests a second; retry after %d s", s.limits.limit.Rate, max(secs, 1)), ""))
	return false
}

// clientIP is the address a request came from, without its port.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
