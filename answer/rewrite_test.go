package answer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// turn is a history with one question and its answer.
func turn(q string) []fonte.Message {
	return []fonte.Message{{Role: "user", Content: q}, {Role: "assistant", Content: "An answer [1]."}}
}

func TestRewriteHeuristicKeepsStandaloneQuestions(t *testing.T) {
	cases := map[string]string{
		// An Italian question with articles that are not pronouns ("la
		// festa") after an unrelated one: searched as it is.
		"Qual è il codice di abbigliamento per la festa di Natale?": "Quanto posso spendere a notte per un hotel a Londra?",
		"Quante ore dura la formazione sulla sicurezza?":            "Chi approva la nota spese?",
		"Quanti posti bici ci sono in cortile?":                     "Dove si parcheggia?",
		"Is it possible to work from another country?":              "How many days of leave do I get?",
		"How long does it take to replace a badge?":                 "Who issues badges?",
		"What is ROL?": "How much leave do I get?",
		"Is there a limit on taxi fares after midnight?": "When can I take a taxi?",
		"And what is the notice period for managers?":    "How do I resign?",
	}
	for q, prev := range cases {
		if got := RewriteHeuristic(turn(prev), q); got != q {
			t.Errorf("after %q, %q was rewritten to %q", prev, q, got)
		}
	}
}

func TestRewriteHeuristicRewritesFollowUps(t *testing.T) {
	cases := []struct {
		prev, q, want string
	}{
		// A fragment takes the place of the phrase it replaces; the rate
		// of the replaced thing goes with it, the place stays.
		{"How much can I spend per night on a hotel in Berlin?", "And for meals?", "How much can I spend for meals in Berlin?"},
		{"Quanto posso spendere a notte per un albergo a Parigi?", "E per i pasti?", "Quanto posso spendere per i pasti a Parigi?"},
		{"How much can I spend per night on a hotel in Berlin?", "And in Paris?", "How much can I spend per night on a hotel in Paris?"},
		{"When can employees book a taxi?", "What about contractors?", "When can contractors book a taxi?"},
		// With no phrase of the fragment's kind, a compound's noun
		// modifier gives way to it: the limit is now for meals. An
		// adjective stays, and the fragment is added.
		{"What is the taxi allowance in Rome?", "And for parking?", "What is the allowance for parking in Rome?"},
		{"What is the weekly allowance in Rome?", "And for parking?", "What is the weekly allowance in Rome for parking?"},
		{"How many vacation days do full-time staff get?", "And part-time staff?", "How many vacation days do part-time staff get?"},
		{"Qual è l'orario della biblioteca di Padova?", "E Verona?", "Qual è l'orario della biblioteca di Verona?"},
		{"What is the response time for a P1 ticket?", "And P3?", "What is the response time for a P3 ticket?"},
		{"Per quanto tempo si tengono i log settimanali?", "E quelli annuali?", "Per quanto tempo si tengono i log annuali?"},
		{"Quanti giorni spettano per il matrimonio?", "Per un lutto invece?", "Quanti giorni spettano per un lutto?"},
		{"How many days before an international flight must I check in online?", "And for a domestic one?", "How many days before a domestic flight must I check in online?"},
		{"Where is the printer on the second floor?", "And on the fourth?", "Where is the printer on the fourth floor?"},
		{"Quali sono gli orari della biblioteca?", "E la domenica?", "Quali sono gli orari della biblioteca la domenica?"},
		{"Quando apre la piscina d'estate?", "E d'inverno?", "Quando apre la piscina d'inverno?"},
		{"How do I ship a parcel to Milan?", "And to Rome?", "How do I ship a parcel to Rome?"},
		{"How long must a passphrase be?", "And for service accounts?", "How long must a passphrase be for service accounts?"},
		// A pronoun is replaced by the phrase it points to.
		{"How long is the guest wifi password valid?", "Can I extend it?", "Can I extend the guest wifi password?"},
		{"Entro quando va consegnato il modulo di rimborso?", "Chi lo firma?", "Chi firma il modulo di rimborso?"},
		{"Dove si scarica il certificato di firma?", "Come lo devo installare sul portatile?", "Come devo installare il certificato di firma sul portatile?"},
		{"How often are the shared vault passwords changed?", "Who stores them?", "Who stores the shared vault passwords?"},
		{"Quanto costa il parcheggio del personale?", "Quanto costa quello per gli ospiti?", "Quanto costa il parcheggio per gli ospiti?"},
		// A clause is swapped for the previous one, or added.
		{"Cosa devo fare se perdo la tessera?", "E se la rompo?", "Cosa devo fare se rompo la tessera?"},
		{"By when must I file my timesheet?", "And if I am sick?", "By when must I file my timesheet, if I am sick?"},
		// A question with nothing of its own is searched with the
		// previous one.
		{"Can a manager read the mailbox of someone who left?", "How long?", "How long — can a manager read the mailbox of someone who left?"},
		{"Come si rinnova il contratto di affitto?", "Quanto costa?", "Quanto costa — come si rinnova il contratto di affitto?"},
		{"Come si configura la VPN su Linux?", "Serve un certificato?", "Serve un certificato — come si configura la VPN su Linux?"},
	}
	for _, c := range cases {
		if got := RewriteHeuristic(turn(c.prev), c.q); got != c.want {
			t.Errorf("after %q, %q\n got %q\nwant %q", c.prev, c.q, got, c.want)
		}
	}
}

func TestRewriteHeuristicUsesTheLastUserTurn(t *testing.T) {
	h := append(turn("How much can I spend on a hotel in Oslo?"), turn("Who books trains?")...)
	if got := RewriteHeuristic(h, "And flights?"); !strings.Contains(got, "flights") || strings.Contains(got, "Oslo") {
		t.Errorf("the follow-up was read against the wrong turn: %q", got)
	}
	if got := RewriteHeuristic(nil, "And flights?"); got != "And flights?" {
		t.Errorf("without history: %q", got)
	}
}

func TestRewriteAsksTheModel(t *testing.T) {
	h := turn("How long do refunds take?")
	if got, _ := Rewrite(context.Background(), nil, "first question", &scripted{text: "unused"}); got != "first question" {
		t.Errorf("no history: %q", got)
	}
	gen := &scripted{text: `"How long do international refunds take?"`}
	got, err := Rewrite(context.Background(), h, "and for international?", gen)
	if err != nil || got != "How long do international refunds take?" {
		t.Errorf("model rewrite %q %v", got, err)
	}
	if prompt := gen.got[0].Content; !strings.Contains(prompt, "user: How long do refunds take?") || !strings.HasSuffix(prompt, "user: and for international?\n\nStandalone query:") {
		t.Errorf("prompt:\n%s", prompt)
	}
	// A reply that is no query falls back to the heuristic.
	for _, text := range []string{"", "line one\nline two"} {
		got, err := Rewrite(context.Background(), h, "and for international?", &scripted{text: text})
		if want := RewriteHeuristic(h, "and for international?"); err != nil || got != want {
			t.Errorf("reply %q: %q %v, want the heuristic's %q", text, got, err, want)
		}
	}
	if _, err := Rewrite(context.Background(), h, "and for international?", &scripted{err: errors.New("server down")}); err == nil || !strings.Contains(err.Error(), "server down") {
		t.Errorf("a model error is lost: %v", err)
	}
	if got, _ := Rewrite(context.Background(), h, "and for international?", nil); got != RewriteHeuristic(h, "and for international?") {
		t.Errorf("without a model: %q", got)
	}
}

// FuzzRewriteHeuristic checks that any pair of previous query and
// follow-up gives a query without panicking, that a question with no
// history is returned trimmed, and that the rewrite is never empty for a
// non-empty question.
func FuzzRewriteHeuristic(f *testing.F) {
	for _, s := range [][2]string{
		{"How much can I spend per night on a hotel in London?", "And for meals?"},
		{"?", "?"}, {"'", "l'"}, {"E la?", "la"}, {"it", "ne"}, {"one", "a one"}, {"quelli", "E quelli"},
		{"Quanti ne?", "Quanti ne posso?"}, {"— —", "How long — ?"}, {"per notte a", "e per"}, {"dall'", "fuori dall'"},
		{"Can I extend it?", "prorogarlo"}, {"Is it?", "there"}, {"SEV1", "SEV2"}, {"and", "and if"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, prev, q string) {
		if got := RewriteHeuristic(nil, q); got != strings.TrimSpace(q) {
			t.Fatalf("no history: %q -> %q", q, got)
		}
		got := RewriteHeuristic(turn(prev), q)
		if strings.TrimSpace(q) != "" && strings.TrimSpace(got) == "" && strings.TrimSpace(prev) != "" {
			t.Fatalf("after %q, %q was rewritten to nothing", prev, q)
		}
	})
}
