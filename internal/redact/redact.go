// Package redact removes credentials from text fonte prints, logs or
// returns: store locations, model-server URLs and the error messages that
// quote them. It is the one place that decides what counts as a secret,
// so a status, a log line and a CLI error mask the same things.
package redact

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces every secret Secrets finds.
const Mask = "xxxxx"

// secretWords are the fragments of a parameter name that mark its value as
// a credential (case-insensitive): password, passwd, sslpassword,
// passphrase, sslkey, api_key, access_token, secret, client_secret,
// auth, authorization, X-Amz-Signature, credentials...
var secretWords = []string{"pass", "pwd", "secret", "key", "token", "auth", "credential", "signature"}

// SecretName reports whether a parameter named name holds a credential.
// Over-matching only hides a harmless value; under-matching prints a
// password.
func SecretName(name string) bool {
	if dec, err := url.QueryUnescape(name); err == nil {
		name = dec
	}
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

var (
	// urlStart finds "scheme://" anywhere in a text.
	urlStart = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://`)
	// param is one name=value pair: a URL query parameter, a key=value
	// connection string's field (libpq allows spaces around '=' and
	// single-quoted values), or a field quoted in an error message.
	param = regexp.MustCompile(`([A-Za-z0-9_.%-]+)(\s*=\s*)('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s&#;'"]+)`)
)

// roleSchemes name a role in a URL's user name (postgres://fonte@host):
// it is kept, and only the password masked. Any other scheme's user info
// is masked whole, since services take a bare token there
// (https://TOKEN@host).
var roleSchemes = map[string]bool{"postgres": true, "postgresql": true, "redis": true, "rediss": true}

// Secrets returns s with every credential masked: in each URL it holds,
// the user-info password (and, but for database URLs, the user name);
// everywhere, the value of every name=value pair whose name says
// password, secret, key, token or auth (SecretName), which covers URL
// query parameters (?password=, sslpassword=, sslkey=, api_key=...),
// key=value connection strings (host=db password=...) and messages that
// quote either. A folder path without such pairs comes back unchanged.
func Secrets(s string) string {
	return param.ReplaceAllStringFunc(maskUserInfo(s), func(m string) string {
		sub := param.FindStringSubmatch(m)
		if !SecretName(sub[1]) {
			return m
		}
		return sub[1] + sub[2] + Mask
	})
}

// maskUserInfo masks the user info of every URL in s.
func maskUserInfo(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range urlStart.FindAllStringIndex(s, -1) {
		if loc[0] < last {
			continue // inside the URL just handled
		}
		scheme := strings.ToLower(s[loc[0] : loc[1]-3])
		rest := s[loc[1]:]
		end := strings.IndexAny(rest, " \t\r\n\"'<>`")
		if end < 0 {
			end = len(rest)
		}
		rest = rest[:end]
		at := userInfoEnd(rest)
		b.WriteString(s[last:loc[1]])
		if at >= 0 {
			b.WriteString(maskedUserInfo(scheme, rest[:at]))
			b.WriteString(rest[at:])
		} else {
			b.WriteString(rest)
		}
		last = loc[1] + end
	}
	b.WriteString(s[last:])
	return b.String()
}

// userInfoEnd is the index of the '@' that ends the user info of rest (a
// URL after "scheme://"), or -1. The authority ends at the first '/', but
// a password may hold an unescaped '/', so without an '@' there the last
// one before the query counts: masking too much only hides a path.
func userInfoEnd(rest string) int {
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		if at := strings.LastIndexByte(rest[:i], '@'); at >= 0 {
			return at
		}
	}
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		q = len(rest)
	}
	return strings.LastIndexByte(rest[:q], '@')
}

func maskedUserInfo(scheme, info string) string {
	user, _, hasPassword := strings.Cut(info, ":")
	switch {
	case !roleSchemes[scheme]:
		return Mask
	case hasPassword:
		return user + ":" + Mask
	}
	return user
}

// Handler wraps h so that every message and attribute value it writes
// (errors included) goes through Secrets.
func Handler(h slog.Handler) slog.Handler {
	if r, ok := h.(handler); ok {
		return r
	}
	return handler{h}
}

type handler struct{ next slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Secrets(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = attr(a)
	}
	return handler{h.next.WithAttrs(clean)}
}

func (h handler) WithGroup(name string) slog.Handler { return handler{h.next.WithGroup(name)} }

// attr masks one attribute's value, groups included. Numbers, booleans,
// times and durations hold no URL and pass as they are.
func attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Secrets(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, x := range g {
			clean[i] = attr(x)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, Secrets(x.Error()))
		case interface{ String() string }:
			return slog.String(a.Key, Secrets(x.String()))
		default:
			// A struct or map may hold a URL too; its printed form is
			// masked like any text.
			return slog.String(a.Key, Secrets(fmt.Sprintf("%+v", x)))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
