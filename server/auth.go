package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// Scope is what a token may do.
type Scope string

// The scopes, from least to most.
const (
	ScopeRead  Scope = "read"  // search, ask, chat, list, status, metrics
	ScopeAdmin Scope = "admin" // everything, deletes included
)

func (s Scope) covers(need Scope) bool { return s == ScopeAdmin || s == need }

// TokenDigest is a configured token: the SHA-256 of the token, in hex, and
// its scope. The token itself is never configured nor kept.
type TokenDigest struct {
	SHA256 string `json:"sha256" yaml:"sha256"`
	Scope  Scope  `json:"scope" yaml:"scope"`
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
	scopes  []Scope
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
		k.digests = append(k.digests, [sha256.Size]byte(raw))
		k.scopes = append(k.scopes, d.Scope)
	}
	return k, nil
}

// scope returns the scope of token, or "" when no digest matches. Every
// digest is compared, in constant time, so the time taken says nothing
// about which digest came close.
func (k *keyring) scope(token string) Scope {
	sum := sha256.Sum256([]byte(token))
	var found Scope
	for i, d := range k.digests {
		if subtle.ConstantTimeCompare(sum[:], d[:]) == 1 && !found.covers(k.scopes[i]) {
			found = k.scopes[i]
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

// require wraps h so it runs only for a token with scope need (or none
// needed: reads when PublicRead is set). The problems name the scope that
// is missing; an unknown token reads as a missing one, so a caller learns
// nothing about which tokens exist.
func (s *Server) require(need Scope, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok, ok := bearer(r)
		if !ok && need == ScopeRead && s.publicRead {
			h(w, r)
			return
		}
		var have Scope
		if ok {
			have = s.keys.scope(tok)
		}
		if have == "" {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="fonte", scope="%s"`, need))
			writeProblem(w, newProblem(http.StatusUnauthorized, "token-required",
				fmt.Sprintf("this route needs a valid bearer token with scope %s (Authorization: Bearer TOKEN)", need), "Authorization"))
			return
		}
		if !have.covers(need) {
			writeProblem(w, newProblem(http.StatusForbidden, "scope-required",
				fmt.Sprintf("this route needs a token with scope %s", need), "Authorization"))
			return
		}
		h(w, r)
	}
}
