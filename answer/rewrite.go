package answer

import (
	"context"
	"fmt"
	"strings"

	"github.com/fonte-rag/fonte"
)

// Rewrite turns a follow-up question into a standalone search query using
// the conversation so far (history alternates user and assistant turns).
// With a generator it asks the model; without one it applies
// RewriteHeuristic. A question with no history is returned as it is.
func Rewrite(ctx context.Context, history []fonte.Message, question string, gen fonte.Generator) (string, error) {
	if len(history) == 0 {
		return question, nil
	}
	if gen == nil {
		return RewriteHeuristic(history, question), nil
	}
	var b strings.Builder
	b.WriteString("Rewrite the user's last question as one standalone search query that can be understood without the conversation. " +
		"If the last question can be understood on its own, reply with it unchanged; otherwise replace what it leaves out or points back to " +
		"with the words of the earlier question it refers to. " +
		"Keep the user's language and the exact names, codes and numbers they used. Reply with the query only.\n\nConversation:\n")
	for _, m := range history {
		fmt.Fprintf(&b, "%s: %s\n", m.Role, strings.TrimSpace(m.Content))
	}
	fmt.Fprintf(&b, "user: %s\n\nStandalone query:", question)
	out, err := gen.Generate(ctx, []fonte.Message{{Role: "user", Content: b.String()}}, nil)
	if err != nil {
		return "", fmt.Errorf("answer: rewriting the question with %s: %w", gen.Model(), err)
	}
	out = strings.Trim(strings.TrimSpace(out), "\"'")
	if out == "" || strings.Contains(out, "\n") {
		return RewriteHeuristic(history, question), nil
	}
	return out, nil
}

// RewriteHeuristic is the offline rewriter. A question that stands on its
// own (a question word or an auxiliary with two content words of its own,
// and no pronoun pointing back) is searched as it is, whatever came
// before. A follow-up is rewritten from the previous turn's query (the
// history's last user turn) and its own words:
//
//   - a fragment takes the place of the matching phrase of the previous
//     query: the phrase that shares its head noun ("part-time employees"
//     for "full-time employees"), the name, code, number or ordinal of the
//     same shape ("Trieste" for "Bologna", "SEV2" for "SEV1"), the time
//     ("il sabato"), the phrase of the same kind of preposition ("for
//     meals" for "on a hotel", "per i pasti" for "per un hotel"), or the
//     noun phrase asked about; the rest of the previous query stays, but
//     for the rate of a replaced thing ("How much can I spend per night on
//     a hotel in London?" → "How much can I spend for meals in London?");
//     a fragment that replaces nothing is added to it;
//   - a pronoun ("it", "they", "la", "li", "ne", "quello") is replaced by
//     the noun phrase the previous query was about ("Can I extend the
//     bypass code?", "Chi approva la nota spese?");
//   - a clause ("and if I am late?", "e se perdo il badge?") replaces the
//     previous query's clause of the same kind, or is added to it;
//   - a short question with nothing of its own ("How long?") is searched
//     with the previous query after it: "How long — can a manager ask…?".
func RewriteHeuristic(history []fonte.Message, question string) string {
	prev := ""
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == "user" {
			prev = strings.TrimSpace(history[i].Content)
			break
		}
	}
	q := strings.TrimSpace(question)
	if prev == "" || q == "" {
		return q
	}
	f := readFollowUp(q)
	if f.own || !f.marked && ownQuestion(f.words) {
		return q
	}
	pw := splitWords(contextOf(prev))
	if len(pw) == 0 || len(f.words) == 0 {
		return prev
	}
	ps := phrases(pw)
	switch {
	case subordinators[f.words[0].lower]:
		return withClause(prev, pw, f)
	case f.anaphor >= 0:
		if out, ok := resolve(f.words, f.anaphor, pw, ps); ok {
			return joinWords(out)
		}
	case !framed(f.words):
		if out, ok := replaceSlot(f.words, pw, ps); ok {
			return joinWords(out)
		}
		return joinWords(append(append([]word{}, pw...), f.words...))
	case f.marked && ownQuestion(f.words):
		return joinWords(f.words)
	}
	return strings.TrimSuffix(joinWords(f.words), "?") + " — " + lowerFirst(prev)
}

// contextOf is the part of a previous query that holds its subject: a
// query this rewriter wrote as "How long — <context>" names it after the
// dash.
func contextOf(prev string) string {
	if _, after, ok := strings.Cut(prev, " — "); ok {
		return after
	}
	return prev
}

// lowerFirst lower-cases a question's first letter when its first word is
// a function word, so that it reads on after a dash.
func lowerFirst(s string) string {
	ws := splitWords(s)
	if len(ws) == 0 || isContent(ws[0]) || isCode(ws[0]) || !strings.HasPrefix(s, ws[0].text) {
		return s
	}
	return ws[0].lower + s[len(ws[0].text):]
}
