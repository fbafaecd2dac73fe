package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

func TestFigureBounds(t *testing.T) {
	for _, c := range []struct {
		text string
		want map[float64]boundDir
	}{
		{"a course that costs more than $1,000", map[float64]boundDir{1000: above}},
		{"corsi che costano meno di 1.000 euro", map[float64]boundDir{1000: below}},
		{"un importo superiore a 5.000 euro", map[float64]boundDir{5000: above}},
		{"un importo inferiore a 5.000 euro", map[float64]boundDir{5000: below}},
		// "more than" inside "no more than", "oltre" inside "non oltre":
		// both are upper bounds.
		{"no more than 30 people", map[float64]boundDir{30: below}},
		{"non oltre 30 persone", map[float64]boundDir{30: below}},
		{"30 people", map[float64]boundDir{}},
	} {
		got := figureBounds(c.text)
		if len(got) != len(c.want) {
			t.Errorf("%q: bounds %v, want %v", c.text, got, c.want)
			continue
		}
		for v, d := range c.want {
			if got[v] != d {
				t.Errorf("%q: bounds %v, want %v", c.text, got, c.want)
			}
		}
	}
}

// A question that names its case by a bound on a figure is answered by
// the item of that case, read under its parent item, not by the list from
// its first case.
func TestQuotesTheItemOfTheBoundedCase(t *testing.T) {
	for _, c := range []struct{ question, text, first, not string }{
		{"How early must I book a course that costs more than 1,000 euro?",
			"Book courses ahead as follows:\n- Two weeks in advance for:\n  - Courses that cost less than 1,000 euro, travel included\n- Six weeks in advance for:\n  - Courses that cost more than 1,000 euro, travel included",
			"- Six weeks in advance for:", "Two weeks"},
		{"Con quanto anticipo devo prenotare un corso che costa più di 1.000 euro?",
			"I corsi si prenotano così:\n- Due settimane prima per:\n  - Corsi che costano meno di 1.000 euro, viaggio compreso\n- Sei settimane prima per:\n  - Corsi che costano più di 1.000 euro, viaggio compreso",
			"- Sei settimane prima per:", "Due settimane"},
	} {
		_, quote := leadOf(t, c.question, c.text)
		if !strings.HasPrefix(quote, c.first) || strings.Contains(quote, c.not) {
			t.Errorf("%q: quoted %q, want it to open with %q and leave out %q", c.question, quote, c.first, c.not)
		}
	}
}

// A paragraph that opens with "These"/"Questi" goes on with the sentence
// before it, and is quoted with it.
func TestQuotesTheParagraphThatGoesOn(t *testing.T) {
	answerHolds(t, []holds{
		{"Which printer drivers are we allowed to install?",
			"Only install signed printer drivers from the vendor.\n\nThese are the drivers listed on its support page (for example, release 5.x or 6.x). Check the page before each upgrade.",
			"release 5.x or 6.x"},
		{"Quali driver di stampa possiamo installare?",
			"Si possono installare solo driver di stampa firmati dal produttore.\n\nQuesti sono i driver elencati nella sua pagina di supporto (per esempio la serie 5.x o 6.x).",
			"serie 5.x o 6.x"},
	})
}

// The sentence that states the figure asked for wins over one that
// shares a word or two more with the question but states none.
func TestQuotesTheSentenceWithTheAskedFigure(t *testing.T) {
	answerHolds(t, []holds{
		{"How soon must we run the latest standard LTS?",
			"Run a standard image within 2 months.\n\nNever run the latest standard LTS without patches from the vendor.",
			"within 2 months"},
		{"Entro quanto dobbiamo installare l'ultima LTS standard?",
			"Si deve installare una LTS standard entro 2 mesi.\n\nMai installare l'ultima LTS standard senza le patch del produttore.",
			"entro 2 mesi"},
	})
}

// holds is a question, the text it is asked over, and what its answer
// (lead and quote) must hold.
type holds struct{ question, text, want string }

// answerHolds checks each case on ExtractSpan.
func answerHolds(t *testing.T, cases []holds) {
	t.Helper()
	for _, c := range cases {
		lead, quote := leadOf(t, c.question, c.text)
		if !strings.Contains(lead+" — "+quote, c.want) {
			t.Errorf("%q: answered %q — %q, want it to hold %q", c.question, lead, quote, c.want)
		}
	}
}

// A sentence that announces the list after it ("the following
// documents", "i seguenti documenti") is quoted with the list, even when
// it does not end in ":" and a note comes between.
func TestQuotesTheListASentenceAnnounces(t *testing.T) {
	for _, c := range []struct{ question, text, item string }{
		{"Which documents do I need to claim a relocation grant?",
			"To claim a relocation grant, send the following documents to the payroll office. Note: scans are accepted.\n\n1. The signed claim form. Your manager signs it too.\n2. The removal company's invoice.\n\nPayroll answers within a week.",
			"removal company's invoice"},
		{"Quali documenti servono per chiedere il contributo di trasloco?",
			"Per chiedere il contributo di trasloco inviate all'ufficio paghe i seguenti documenti.\n\n- Il modulo firmato.\n- La fattura della ditta di traslochi.",
			"fattura della ditta"},
	} {
		got, _, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if !strings.Contains(got, c.item) {
			t.Errorf("%s: answer %q, want the list with %q", c.question, got, c.item)
		}
		if strings.Contains(got, "within a week") {
			t.Errorf("%s: answer %q goes past the list", c.question, got)
		}
	}
}

// What an intro ending in ":" introduces is quoted with it. An item
// that goes on on the next line is quoted whole, under the item that
// introduces it: asked which accessibility law the design guidelines
// include, the answerer quoted the list's first intro and first items,
// and the item "- Linee Guida AgID sul Design" without its next line,
// which names the law. An example is quoted up to the prose after it:
// asked how to credit both people of a pair, the answerer quoted "…
// structure your commit message like:" and stopped there.
func TestQuotesWhatAnIntroIntroduces(t *testing.T) {
	for _, c := range []struct{ question, text, want, not string }{
		{"Quale legge sull'accessibilità è inclusa nelle linee guida sul design?",
			"Le attività previste in questa fase sono:\n\n" +
				"- individuazione della disponibilità di bilancio per assicurare la disponibilità;\n" +
				"- stima dei tempi per la messa in esercizio della soluzione;\n" +
				"- eventuali norme e linee guida che il software dovrà seguire, come per esempio:\n\n" +
				"- Linee Guida AgID sul Design\n(che includono anche l'adempimento alla Legge 4/2004 sull'accessibilità);\n" +
				"- Linee Guida AgID sull'Interoperabilità;",
			"Legge 4/2004", "bilancio"},
		{"How do we credit both people in a commit we wrote as a pair?",
			"For example, if you had two or more contributing as part of a pair, you would structure your commit message like:\n\n" +
				"TICKET-123: Add a new feature\n\n" +
				"Co-authored-by: Person One <person.one@example.com>\n\n" +
				"This is visible within the normal Git log and within GitHub too.",
			"Co-authored-by: Person One", "visible within"},
	} {
		got, _, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s: answer %q, want %q and not %q", c.question, got, c.want, c.not)
		}
	}
}

// A sentence whose only figure belongs to another clause than the
// question's words (a deadline to upgrade, stated "to ensure" the fixes
// asked about) is not quoted over the sentence that states the asked
// figure, even from a chunk retrieved lower: read first, its figure
// would answer wrongly.
func TestFigureOfAPurposeClauseIsNotQuoted(t *testing.T) {
	for _, c := range [][3]string{
		{"For how long does a standard release of the app get bug fixes?",
			"If you run a standard release of the app, you must upgrade to the newest release within 2 months to ensure you keep getting bug fixes. Plan the upgrade early.",
			"Standard releases get bug fixes for 8 months after they come out. Long-term releases get them for 4 years."},
		{"Per quanto tempo una versione standard dell'app riceve le correzioni?",
			"Se usate una versione standard dell'app, dovete passare all'ultima versione entro 2 mesi per garantire di ricevere le correzioni. Pianificate il passaggio per tempo.",
			"Le versioni standard ricevono le correzioni per 8 mesi dal rilascio. Le versioni a lungo termine le ricevono per 4 anni."},
	} {
		got, n, _ := ExtractSpan(c[0], []fonte.Chunk{{ID: "a", Text: c[1]}, {ID: "b", Text: c[2]}})
		if n != 2 || !strings.Contains(got, "8 m") {
			t.Errorf("%q: quoted [%d] %q, want the 8 months of the second chunk", c[0], n, got)
		}
	}
}
