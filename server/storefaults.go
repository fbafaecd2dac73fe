package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/fonte-rag/fonte"
)

// storeRetryAfter is the Retry-After, in seconds, of a store-unavailable
// problem: long enough for a database server to restart or fail over.
const storeRetryAfter = 5

// storeProblem is the problem for a store that failed for a reason of
// its own, not fonte's: it does not answer (down, restarting, the
// connection lost), which is a 503 the client may retry, or it refuses
// writes (a PostgreSQL hot standby), a 409 until writes go to the
// primary. The detail names the collection; where the store is stays in
// the log, which only operators read.
func (s *Server) storeProblem(r *http.Request, err error) (Problem, bool) {
	where := "the store"
	if name := s.routeCollection(r); name != "" {
		where = fmt.Sprintf("the store of collection %q", name)
	}
	switch {
	case errors.Is(err, fonte.ErrReadOnly):
		return newProblem(http.StatusConflict, "read-only-store",
			where+" is read-only (a replica such as a PostgreSQL hot standby): nothing was changed; send writes to a server that writes to the primary", ""), true
	case errors.Is(err, fonte.ErrUnavailable):
		return newProblem(http.StatusServiceUnavailable, "store-unavailable",
			where+" does not answer (its database server is down, restarting, failing over or unreachable); try again shortly", ""), true
	}
	return Problem{}, false
}

// setRetryAfter tells a client when to send a request that failed on an
// unavailable store again.
func setRetryAfter(w http.ResponseWriter, p Problem) {
	if p.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(storeRetryAfter))
	}
}
