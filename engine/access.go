package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fonte-rag/fonte"
	"github.com/fonte-rag/fonte/ingest"
)

// NormalizeAccess checks folder access rules (Settings.Access) and returns
// them in the form the engine matches: a rule's folder is a prefix of
// document ids, which are slash paths relative to the indexed folder, so a
// leading "./" or "/" (and any backslash) is normalised away rather than
// left to match nothing; rules that then name the same folder are merged.
// A rule without labels, or with an empty label, is an error naming it:
// it would leave its documents public.
func NormalizeAccess(rules map[string][]string) (map[string][]string, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	out := make(map[string][]string, len(rules))
	for _, rule := range slices.Sorted(maps.Keys(rules)) {
		labels := rules[rule]
		if len(labels) == 0 {
			return nil, &AccessRuleError{Rule: rule, Problem: "has no labels; give at least one ([hr]) or remove the rule"}
		}
		prefix := strings.ReplaceAll(strings.TrimSpace(rule), `\`, "/")
		for strings.HasPrefix(prefix, "./") || strings.HasPrefix(prefix, "/") {
			prefix = strings.TrimPrefix(strings.TrimPrefix(prefix, "."), "/")
		}
		for i, l := range labels {
			l = strings.TrimSpace(l)
			if l == "" {
				return nil, &AccessRuleError{Rule: rule, Problem: fmt.Sprintf("label %d is empty", i+1)}
			}
			if !slices.Contains(out[prefix], l) {
				out[prefix] = append(out[prefix], l)
			}
		}
	}
	return out, nil
}

// AccessRuleError is a folder access rule that cannot work: it has no
// labels, or it matches no document of the folder indexed.
type AccessRuleError struct {
	Rule    string // the rule as configured
	Problem string
}

// Error implements error; it names the rule.
func (e *AccessRuleError) Error() string {
	return fmt.Sprintf("access rule %q %s", e.Rule, e.Problem)
}

// LabelError refuses an upload in which a file's access labels cannot be
// read (see ingest.ReasonAccess): nothing of the upload is indexed, since
// indexing the file without them would make it public.
type LabelError struct {
	Refused []Refused // the files at fault, each with its field
}

// Error implements error; it names each file and field.
func (e *LabelError) Error() string {
	parts := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		parts[i] = fmt.Sprintf("%s (%s): %s", r.Path, r.Field, r.Reason)
	}
	return "access labels refused: " + strings.Join(parts, "; ")
}

// LabelRefusals are the files of the report refused because their access
// labels cannot be read (Refused.Field set): `fonte index` fails on them.
func (r *IndexReport) LabelRefusals() []Refused {
	var out []Refused
	for _, f := range r.Refused {
		if f.Field != "" {
			out = append(out, f)
		}
	}
	return out
}

// rulesFor returns the configured rules that cover document id. Rules
// match case-insensitively on every system: ids keep the case the file
// system or the uploader gave them, and a rule written "secret/" must
// cover "Secret/x.md", whose labels would otherwise be lost.
func (e *Engine) rulesFor(id string) []string {
	var rules []string
	for _, set := range []map[string][]string{e.settings.Access, e.settings.InheritedAccess} {
		for _, prefix := range slices.Sorted(maps.Keys(set)) {
			if hasPrefixFold(id, prefix) && !slices.Contains(rules, prefix) {
				rules = append(rules, prefix)
			}
		}
	}
	return rules
}

// withAccess adds the access tags the folder rules give document id.
func (e *Engine) withAccess(id string, tags []string) []string {
	for _, prefix := range e.rulesFor(id) {
		for _, l := range slices.Concat(e.settings.Access[prefix], e.settings.InheritedAccess[prefix]) {
			if t := fonte.AccessTag(l); !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	return tags
}

// frontMatterRefusal refuses a parsed file under a folder rule whose front
// matter could not be read: the labels it may add to the rule's are
// unknown. Nil when the file may be indexed.
func (e *Engine) frontMatterRefusal(id string, p *ingest.Parsed) *ingest.Refusal {
	if p.FrontMatterErr == nil {
		return nil
	}
	rules := e.rulesFor(id)
	if len(rules) == 0 {
		return nil
	}
	return &ingest.Refusal{Path: id, Reason: ingest.ReasonAccess, Field: "front matter", Err: p.FrontMatterErr,
		Detail: fmt.Sprintf("access rule %q covers the file, but its front matter cannot be read, so the labels it may add are unknown", rules[0])}
}

// checkRulesMatch fails naming the first rule that covers none of ids (the
// files of the folder and the uploaded documents kept): such a rule is
// mistyped or points at a folder that is not there, and the documents it
// was meant for would be public. The error suggests the rule's tail that
// does match, when one does ("docs/hr/" for ids under "hr/").
func (e *Engine) checkRulesMatch(folder string, ids []string) error {
	for _, prefix := range slices.Sorted(maps.Keys(e.settings.Access)) {
		if slices.ContainsFunc(ids, func(id string) bool { return hasPrefixFold(id, prefix) }) {
			continue
		}
		problem := fmt.Sprintf("matches no file of %s (rules are folders relative to it, such as \"hr/\")", folder)
		for tail := prefix; strings.Contains(tail, "/"); {
			_, tail, _ = strings.Cut(tail, "/")
			if tail != "" && slices.ContainsFunc(ids, func(id string) bool { return hasPrefixFold(id, tail) }) {
				problem += fmt.Sprintf("; did you mean %q?", tail)
				break
			}
		}
		return &AccessRuleError{Rule: prefix, Problem: problem}
	}
	return nil
}

// hasPrefixFold reports whether s begins with prefix under Unicode case
// folding, rune by rune (lower-casing whole strings can change their
// byte lengths).
func hasPrefixFold(s, prefix string) bool {
	for _, want := range prefix {
		if s == "" {
			return false
		}
		got, size := utf8.DecodeRuneInString(s)
		if got != want && !strings.EqualFold(string(got), string(want)) {
			return false
		}
		s = s[size:]
	}
	return true
}

// labelCounts counts the documents that carry each access label.
func labelCounts(docs []fonte.DocInfo) map[string]int {
	counts := map[string]int{}
	for _, d := range docs {
		for _, t := range d.Tags {
			if l, ok := strings.CutPrefix(t, fonte.AccessTagPrefix); ok {
				counts[l]++
			}
		}
	}
	return counts
}
