package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// TestAskAbstainsWithoutTheAskedKind: passages about the question's
// subject that state no figure of the kind it asks for do not answer
// it, in English and Italian; a passage that states one does, and a
// question that asks for no figure is answered from the same passages.
func TestAskAbstainsWithoutTheAskedKind(t *testing.T) {
	backups := []string{
		"Backups are encrypted and versioned. Only the platform team can delete a backup from the offline account.",
		"Restore a backup to a separate database before you check it.",
	}
	chiavi := []string{
		"La chiave del magazzino è custodita in portineria. Chi perde una chiave lo segnala al responsabile della sede.",
	}
	for _, tc := range []struct {
		question, lang string
		texts          []string
		abstains       bool
	}{
		{"How long do we have to keep backups before we can delete them?", "en", backups, true},
		{"How often should backups be restored to check them?", "en", backups, true},
		{"What's the session timeout for the backup account?", "en", backups, true},
		{"What share of the backups must be encrypted?", "en", backups, true},
		{"Who can delete a backup?", "en", backups, false},
		{"How long do we have to keep backups before we can delete them?", "en",
			append([]string{"Keep backups for 90 days, then delete them from the offline account."}, backups...), false},
		{"Per quanto tempo bisogna tenere la chiave del magazzino?", "it", chiavi, true},
		{"Chi custodisce la chiave del magazzino?", "it", chiavi, false},
		{"Per quanto tempo bisogna tenere la chiave del magazzino?", "it",
			append([]string{"La chiave del magazzino va tenuta per 2 giorni al massimo."}, chiavi...), false},
	} {
		a, tr := askOver(t, tc.question, tc.lang, tc.texts)
		if a.Abstained != tc.abstains {
			t.Errorf("%q: abstained %v, want %v (answer %q)", tc.question, a.Abstained, tc.abstains, a.Text)
		}
		if tc.abstains && !strings.Contains(tr.AbstainReason, "asks for a figure") {
			t.Errorf("%q: the trace says %q", tc.question, tr.AbstainReason)
		}
		if tc.abstains && a.Text != MessagesFor(tc.lang).DontKnow {
			t.Errorf("%q: %q is not the abstention in %s", tc.question, a.Text, tc.lang)
		}
		// The relevance is over the floor, so the notice says why.
		if want := ""; tc.abstains && a.Notice != UnstatedKindNotice(tc.lang) || !tc.abstains && a.Notice != want {
			t.Errorf("%q: notice %q", tc.question, a.Notice)
		}
	}
}

// TestAskAbstainsWhenTheQuestionsNameIsMissing: a question that names its
// case (a city, a product, a code) is not answered from passages that
// share its other words but never name it, in English and Italian; it is
// when a passage names it, also run together or inflected, and a
// sentence's first word, a figure and a figure with its unit are not
// names.
func TestAskAbstainsWhenTheQuestionsNameIsMissing(t *testing.T) {
	hotel := []string{
		"Hotel: up to 180 euro per night, and up to 250 euro per night in London.",
		"Book hotels through the travel portal.",
	}
	licenze := []string{"Le licenze di LibreOffice sono pagate dall'ufficio acquisti per ogni dipendente."}
	for _, tc := range []struct {
		question, lang, missing string
		texts                   []string
	}{
		{"How much can I spend per night on a hotel in Denver?", "en", "Denver", hotel},
		{"How much can I spend per night on a hotel in London?", "en", "", hotel},
		{"Hotel limits for an 8-night trip: how much per night?", "en", "", hotel},
		{"Does the company pay a 1Password licence for hotel bookings?", "en", "1Password", hotel},
		{"Can PeopleOps book my hotel?", "en", "", append([]string{"People Ops can book a hotel for you."}, hotel...)},
		{"Chi paga le licenze di Photoshop?", "it", "Photoshop", licenze},
		{"Chi paga le licenze di LibreOffice?", "it", "", licenze},
	} {
		a, tr := askOver(t, tc.question, tc.lang, tc.texts)
		if a.Abstained != (tc.missing != "") {
			t.Errorf("%q: abstained %v (answer %q)", tc.question, a.Abstained, a.Text)
		}
		if tc.missing != "" && !strings.Contains(tr.AbstainReason, `"`+tc.missing+`"`) {
			t.Errorf("%q: the trace says %q, not naming %s", tc.question, tr.AbstainReason, tc.missing)
		}
		// The relevance is over the floor, so the notice says why, in
		// the question's language.
		if tc.missing != "" && a.Notice != UnnamedCaseNotice(tc.lang, tc.missing) {
			t.Errorf("%q: notice %q, want %q", tc.question, a.Notice, UnnamedCaseNotice(tc.lang, tc.missing))
		}
	}
}

// askOver asks question over passages of the given texts, each a hit
// well over the floor, and returns the answer and its trace.
func askOver(t *testing.T, question, lang string, texts []string) (*fonte.Answer, *Trace) {
	t.Helper()
	var hits []fonte.Hit
	for i, text := range texts {
		hits = append(hits, fonte.Hit{Chunk: fonte.Chunk{ID: string(rune('a' + i)), DocID: "d", Text: text}, Score: 1, Relevance: 0.9})
	}
	tr := &Trace{}
	a, err := Ask(context.Background(), question, hits, nil, Config{Floor: 0.25, Lang: lang, Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	return a, tr
}

// TestKindWords: the words that ask for a kind of figure, overlapping
// phrases included, with the noun naming the measure asked for and a
// hedge before them, and only when the kind is checked; a unit of time
// the question counts in stays a word the passage must hold.
func TestKindWords(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     []string
	}{
		{"How quickly are broken windows repaired?", []string{"how", "quickly"}},
		{"Entro quanto tempo si ripara una finestra rotta?", []string{"entro", "quanto", "tempo"}},
		{"How many weeks does a window repair take?", []string{"how", "many"}},
		{"At what time does the workshop open?", []string{"at", "what", "time"}},
		{"Roughly what share of the windows are repaired in a day?", []string{"roughly", "what", "share"}},
		{"What is the minimum length of a window pole?", []string{"what", "is", "the", "minimum", "length"}},
		{"What percentage of repairs are late?", []string{"what", "percentage"}},
		{"Approximately how many windows are repaired a week?", []string{"approximately", "how", "many"}},
		{"Circa quante finestre si riparano al mese?", []string{"circa", "quante"}},
		{"Who decides the share of repairs paid by the landlord?", nil},
		{"Who repairs broken windows?", nil},
		{"Which supplier repairs windows in a day?", nil},
	} {
		got := KindWords(tc.question)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("KindWords(%q) = %q, want %q", tc.question, got, tc.want)
		}
	}
}

// An acronym the question writes in the plural ("SLOs"), or that the
// passages spell out ("Data Protection Officer", "Responsabile per la
// Transizione al Digitale"), is held by them.
func TestAcronymsHeld(t *testing.T) {
	for _, c := range []struct{ question, text string }{
		{"How many SLOs should a new service have?", "A new service should start with at most three SLO targets."},
		{"Who is our DPO?", "The Data Protection Officer is Ada Rossi."},
		{"Chi nomina il RTD?", "Il Responsabile per la Transizione al Digitale è nominato dal sindaco."},
	} {
		hits := []fonte.Hit{{Chunk: fonte.Chunk{Text: c.text}}}
		if m := missingName(c.question, hits, nil, nil); m != "" {
			t.Errorf("%q: %q reported missing from %q", c.question, m, c.text)
		}
	}
	hits := []fonte.Hit{{Chunk: fonte.Chunk{Text: "The Data Protection Officer is Ada Rossi."}}}
	if m := missingName("Who is our CISO?", hits, nil, nil); m != "CISO" {
		t.Errorf("missingName = %q, want CISO", m)
	}
}

// A name joined to a lower-case word by a hyphen is the name alone, an
// identifier with underscores is one name, and "OK" names nothing; a
// name no passage holds is still reported.
func TestQuestionNamesCompoundsAndIdentifiers(t *testing.T) {
	for _, c := range []struct {
		question string
		want     []string
	}{
		{"Can we keep SECRET-classified files in the shared drive?", []string{"SECRET"}},
		{"Is a Java-based service allowed?", []string{"Java"}},
		{"Who fills in OWNER_NOTES.md for a project?", []string{"OWNER_NOTES.md"}},
		{"Is it OK to reuse a badge?", nil},
		{"Is the COVID-19 rule still in force?", []string{"COVID-19"}},
	} {
		if got := questionNames(c.question); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("questionNames(%q) = %q, want %q", c.question, got, c.want)
		}
	}
	hits := []fonte.Hit{{Chunk: fonte.Chunk{Text: "Files classified as SECRET are kept off the shared drive."}}}
	if m := missingName("Can we keep SECRET-classified files in the shared drive?", hits, nil, nil); m != "" {
		t.Errorf("missingName = %q, want none: the passage says SECRET", m)
	}
	if m := missingName("Can we keep TOPSECRET-classified files in the shared drive?", hits, nil, nil); m != "TOPSECRET" {
		t.Errorf("missingName = %q, want TOPSECRET", m)
	}
}
