package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/fonte-rag/fonte"
)

// Scope is what a token may do.
type Scope string

// The scopes, from least to most.
const (
	ScopeRead  Scope = "read"  // search, ask, chat, list, status
	ScopeAdmin Scope = "admin" // everything, deletes and metrics included
)

func (s Scope) covers(need Scope) bool { return s == ScopeAdmin || s == need }

// TokenDigest is a configured token: the SHA-256 of the token, in hex, its
// scope, the collections it may use (none listed: all) and the access
// labels whose documents it may read (documents without labels are open
// to every token). The token itself is never configured nor kept.
type TokenDigest struct {
	SHA256      string   `json:"sha256" yaml:"sha256"`
	Scope       Scope    `json:"scope" yaml:"scope"`
	Collections []string `json:"collections,omitempty" yaml:"collections"`
	Labels      []string `json:"labels,omitempty" yaml:"labels"`
}

// Digest returns the hex SHA-256 of a token, as TokenDigest wants it.
func Digest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewToken returns a random token of 32 bytes from crypto/rand.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "fonte_" + hex.EncodeToString(b), nil
}

type keyring struct {
	digests [][sha256.Size]byte
	grants  []grant
}

// grant is what one configured token allows.
type grant struct {
	scope       Scope
	collections []string // nil: every collection
	labels      []string
	key         string // the digest, naming the token to the rate limiter
}

// may reports whether g allows need on collection ("": on some
// collection).
func (g grant) may(need Scope, collection string) bool {
	return g.scope.covers(need) && (collection == "" || g.collections == nil || slices.Contains(g.collections, collection))
}

// filter is the access restriction g puts on every read: none for admin
// tokens, else the token's labels.
func (g grant) filter() fonte.Filter {
	if g.scope == ScopeAdmin {
		return fonte.Filter{}
	}
	return fonte.Filter{Restricted: true, Labels: g.labels}
}

func newKeyring(ds []TokenDigest) (*keyring, error) {
	k := &keyring{}
	for i, d := range ds {
		raw, err := hex.DecodeString(strings.TrimSpace(d.SHA256))
		if err != nil || len(raw) != sha256.Size {
			return nil, fmt.Errorf("token %d: sha256 must be 64 hex digits", i+1)
		}
		if d.Scope != ScopeRead && d.Scope != ScopeAdmin {
			return nil, fmt.Errorf("token %d: scope %q (want read or admin)", i+1, d.Scope)
		}
		for _, c := range d.Collections {
			if err := ValidCollectionName(c); err != nil {
				return nil, fmt.Errorf("token %d: %w", i+1, err)
			}
		}
		var cols []string
		if len(d.Collections) > 0 {
			cols = slices.Clone(d.Collections)
		}
		k.digests = append(k.digests, [sha256.Size]byte(raw))
		k.grants = append(k.grants, grant{scope: d.Scope, collections: cols, labels: slices.Clone(d.Labels), key: hex.EncodeToString(raw)})
	}
	return k, nil
}

// lookup returns the grants of token (several when its digest is
// configured more than once). Every digest is compared, in constant time,
// so the time taken says nothing about which digest came close.
func (k *keyring) lookup(token string) []grant {
	sum := sha256.Sum256([]byte(token))
	var found []grant
	for i, d := range k.digests {
		if subtle.ConstantTimeCompare(sum[:], d[:]) == 1 {
			found = append(found, k.grants[i])
		}
	}
	return found
}

// bearer extracts the token of an Authorization: Bearer header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

// grantKey is the request context key of the caller's grants.
type grantKey struct{}

// grants are what one request's token allows (one entry per configured
// digest it matches).
type grants []grant

// grantFor merges the caller's grants that allow need on collection;
// false when none does.
func grantFor(r *http.Request, need Scope, collection string) (grant, bool) {
	gs, _ := r.Context().Value(grantKey{}).(grants)
	return gs.merge(need, collection)
}

// grantOf is the caller's grant on the request's own collection (for
// collection routes, whose access require has already checked).
func grantOf(r *http.Request) grant {
	g, _ := grantFor(r, ScopeRead, collectionName(r))
	return g
}

func (gs grants) merge(need Scope, collection string) (grant, bool) {
	var g grant
	found := false
	for _, o := range gs {
		if !o.may(need, collection) {
			continue
		}
		if !found {
			g, found = o, true
			continue
		}
		// Labels add up over every entry of the same token.
		if o.scope == ScopeAdmin {
			g.scope = ScopeAdmin
		}
		g.labels = append(slices.Clone(g.labels), o.labels...)
	}
	return g, found
}

// require wraps h so it runs only for a token with scope need on the
// request's collection (for global routes: on any collection; their
// handlers check each collection they touch). Reads need no token when
// PublicRead is set, and then see only documents without access labels.
// The problems name the scope that is missing; an unknown token reads as
// a missing one, so a caller learns nothing about which tokens exist. A
// token limited to other collections gets 403 whether or not the
// collection exists.
func (s *Server) require(need Scope, global bool, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		col := collectionName(r)
		if global {
			col = ""
		}
		tok, ok := bearer(r)
		var gs grants
		switch {
		case !ok && need == ScopeRead && s.publicRead:
			gs = grants{{scope: ScopeRead, key: "public:" + clientIP(r)}}
		case ok:
			gs = s.keys.lookup(tok)
		}
		if len(gs) == 0 {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="fonte", scope="%s"`, need))
			writeProblem(w, newProblem(http.StatusUnauthorized, "token-required",
				fmt.Sprintf("this route needs a valid bearer token with scope %s (Authorization: Bearer TOKEN)", need), "Authorization"))
			return
		}
		g, ok := gs.merge(need, col)
		if !ok {
			if _, scoped := gs.merge(need, ""); scoped {
				writeProblem(w, newProblem(http.StatusForbidden, "collection-forbidden",
					fmt.Sprintf("this token may not use collection %q", col), "Authorization"))
				return
			}
			writeProblem(w, newProblem(http.StatusForbidden, "scope-required",
				fmt.Sprintf("this route needs a token with scope %s", need), "Authorization"))
			return
		}
		if !s.allow(w, g) {
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), grantKey{}, gs)))
	}
}
