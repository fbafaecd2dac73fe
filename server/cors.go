package server

import (
	"net/http"
	"slices"
)

// cors answers browsers for the configured origins only: with no origin
// configured it adds nothing, so a page on another site cannot read any
// answer (the browser's same-origin policy stays in force).
type cors struct{ origins []string }

func newCORS(origins []string) *cors { return &cors{origins: slices.Clone(origins)} }

func (c *cors) wrap(h http.Handler) http.Handler {
	if len(c.origins) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || !slices.Contains(c.origins, origin) {
			h.ServeHTTP(w, r)
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Add("Vary", "Origin")
		hd.Set("Access-Control-Expose-Headers", "Retry-After, WWW-Authenticate")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept")
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}
