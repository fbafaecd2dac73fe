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

// followUpStarts are openings that mark a question as depending on the
// previous one, in English and Italian.
var followUpStarts = []string{"and ", "what about", "how about", "also ", "but ", "or ", "then ",
	"e ", "ed ", "invece", "anche ", "ma ", "o ", "quindi ", "allora "}

// referringWords are pronouns and demonstratives that point back to the
// previous question's subject.
var referringWords = map[string]bool{"it": true, "its": true, "that": true, "this": true, "they": true, "them": true,
	"those": true, "these": true, "there": true, "one": true, "ones": true,
	"lo": true, "la": true, "li": true, "le": true, "ne": true, "ci": true, "esso": true, "essa": true, "quello": true,
	"quella": true, "questo": true, "questa": true, "ciò": true, "quelli": true, "quelle": true}

// RewriteHeuristic is the offline rewriter: a follow-up that opens with a
// connective ("and for international?", "e per l'estero?"), points back
// with a pronoun ("how long does it take?"), or has fewer than three
// content words is joined to the previous standalone question, so the
// search sees both the old subject and the new detail:
// "How long do refunds take? (and for international?)". Any other
// question stands alone.
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
	lower := strings.ToLower(q)
	dependent := len(ContentKeys(q)) < 3
	for _, s := range followUpStarts {
		if strings.HasPrefix(lower, s) {
			dependent = true
		}
	}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !(r == '\'' || r == '’' || r >= 'a' && r <= 'z' || r > 127) }) {
		if referringWords[w] {
			dependent = true
		}
	}
	if !dependent {
		return q
	}
	return prev + " (" + q + ")"
}
