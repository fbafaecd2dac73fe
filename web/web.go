// Package web is fonte's web page: ask with streamed answers and
// checkable citations, see why, manage documents, read the evaluation.
// Its files are embedded in the binary (no CDN, no build step) and it
// talks to the HTTP API of package server with the token the person
// enters, kept in the browser's storage.
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var files embed.FS

// Handler serves the page at / and its assets at /static/…. The page
// holds no secret, so it needs no token; every call it makes to the API
// does.
func Handler() http.Handler {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	assets := http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// The page runs only its own scripts and styles and talks only to
		// its own origin; no other site may frame it.
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if r.URL.Path == "/" {
			h.Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, sub, "index.html")
			return
		}
		h.Set("Cache-Control", "no-cache")
		assets.ServeHTTP(w, r)
	})
}
