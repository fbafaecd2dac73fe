package server

import (
	"net"
	"net/http"
	"strings"
)

// hostGuard refuses requests whose Host header names neither the listen
// address nor a configured name: a page on another site that rebinds its
// DNS name to this machine's address cannot reach the API through a
// browser, since its requests carry that site's name.
type hostGuard struct {
	names     map[string]bool
	anyIP     bool // listening on all interfaces: any address literal is fine
	loopback  bool
	listening string
}

func newHostGuard(addr string, extra []string) *hostGuard {
	g := &hostGuard{names: map[string]bool{}, listening: addr}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	switch {
	case host == "" || (ip != nil && ip.IsUnspecified()):
		g.anyIP = true
	case ip != nil && ip.IsLoopback(), strings.EqualFold(host, "localhost"):
		g.loopback = true
	}
	if host != "" {
		g.names[strings.ToLower(host)] = true
	}
	for _, n := range extra {
		g.names[strings.ToLower(strings.TrimSuffix(n, "."))] = true
	}
	return g
}

func (g *hostGuard) allows(hostHeader string) bool {
	host, _, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host = hostHeader
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if g.names[host] {
		return true
	}
	ip := net.ParseIP(host)
	if g.loopback && (host == "localhost" || (ip != nil && ip.IsLoopback())) {
		return true
	}
	// An address literal cannot be rebound, so on a wildcard listener it is
	// as good as the listen address.
	return g.anyIP && ip != nil
}

func (g *hostGuard) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.allows(r.Host) {
			writeProblem(w, newProblem(http.StatusMisdirectedRequest, "host-refused",
				"this server does not answer for host "+quoteHost(r.Host)+"; use its listen address or a configured name", "Host"))
			return
		}
		h.ServeHTTP(w, r)
	})
}

func quoteHost(h string) string {
	if len(h) > 100 {
		h = h[:100]
	}
	return `"` + strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' {
			return -1
		}
		return r
	}, h) + `"`
}
