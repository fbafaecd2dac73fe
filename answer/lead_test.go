package answer

import (
	"strings"
	"testing"

	"github.com/fonte-rag/fonte"
)

// leadOf returns the lead of ExtractSpan's answer ("X" of "X — quote"),
// "" when it has none, and the quoted text.
func leadOf(t *testing.T, question string, texts ...string) (lead, quote string) {
	t.Helper()
	var chunks []fonte.Chunk
	for i, tx := range texts {
		chunks = append(chunks, fonte.Chunk{ID: string(rune('a' + i)), Text: tx})
	}
	got, n, _ := ExtractSpan(question, chunks)
	if n == 0 {
		t.Fatalf("%q: nothing quoted", question)
	}
	if l, q, ok := strings.Cut(got, " — "); ok {
		return l, q
	}
	return "", got
}

// The failures of issue 20, each on text written for this test.
func TestLeadIsBoundToTheDistinguishingWords(t *testing.T) {
	for _, c := range []struct {
		question, text, lead string
	}{
		// London against the general rate.
		{"How much can I spend on a hotel per night in Rome?",
			"Hotel: up to 140 euro per night, and up to 210 euro per night in Rome, Madrid and Vienna.", "210 euro"},
		{"Quanto posso spendere per una notte d'albergo a Parigi?",
			"Albergo: fino a 110 euro a notte, e fino a 190 euro a notte a Parigi, Londra e Berlino.", "190 euro"},
		// The charging time, not the floor number.
		{"How long can I leave my bike at the charging station?",
			"E-bikes may stay at the charging station for up to 3 hours; the station is on level -2 of the garage.", "3 hours"},
		{"Per quanto tempo posso tenere l'auto alla colonnina di ricarica?",
			"Le auto possono restare alla colonnina di ricarica al massimo 2 ore; le colonnine sono al livello -1.", "2 ore"},
		// The meeting place, not "building".
		{"Where do we gather during an evacuation?",
			"During an evacuation, leave the building by the stairs and gather in the west parking lot.", "the west parking lot"},
		{"Dove ci si raduna durante l'evacuazione?",
			"Durante l'evacuazione si esce dall'edificio per le scale e ci si raduna nel piazzale sud.", "piazzale sud"},
		// The unit asked for.
		{"How many weeks of parental leave do I get?", "Parental leave lasts 16 weeks; the job is kept for 12 months.", "16 weeks"},
		// A bound that is the answer, not a condition.
		{"How long must the door code be?", "Door codes must be at least 6 digits long.", "6 digits"},
		// A time of day answers "when"; "does" says nothing of the topic.
		{"What time does the post room close?", "The post room is open from 8:15 to 12:45.", "from 8:15 to 12:45"},
		{"When does the post room open?", "The post room opens at 8:15 every weekday.", "8:15 every weekday"},
		// A range kept whole.
		{"When is the library open?",
			"The library is open from 8:30 to 18:00 on weekdays.", "from 8:30 to 18:00 on weekdays"},
		{"Quando è aperta la biblioteca?",
			"La biblioteca è aperta dalle 8:30 alle 18:00.", "dalle 8:30 alle 18:00"},
	} {
		if lead, _ := leadOf(t, c.question, c.text); lead != c.lead {
			t.Errorf("%q: lead %q, want %q", c.question, lead, c.lead)
		}
	}
}

func TestNoLeadWhenInDoubt(t *testing.T) {
	for _, c := range []struct{ question, text string }{
		// Two rates, and the question names neither case.
		{"How much can I spend on a hotel per night?",
			"Hotel: up to 140 euro per night, and up to 210 euro per night in Rome, Madrid and Vienna."},
		// A floor number is no duration.
		{"How long does the lift take to reach level 3?", "The lift serves levels -2 to 3 of the garage."},
		// A bare "building" is no meeting place.
		{"Where do we meet for the fire drill?", "During the fire drill nobody may stay in the building."},
		// Another unit than the one asked for.
		{"How many weeks of parental leave do I get?", "Parental leave lasts 4 months and is paid in full."},
		{"Quanti giorni di ferie ho?", "Le ferie sono 4 settimane l'anno."},
		// A threshold in a condition says when a rule applies.
		{"How long does the review of a grant take?", "Any grant that asks for more than 20 days of work is reviewed by the board."},
		{"Quanto tempo dura la revisione?", "Se la revisione dura più di 10 giorni, avvisa il responsabile."},
		// The question's own figure is the condition, not the answer.
		{"How many hours of leave do I get after six years of service?", "After 6 years of service the yearly bonus is paid in March."},
		// The label of one "label: value" item among siblings whose
		// values also speak of the topic names a case (caseLabel).
		{"Who can apply for a parking permit?",
			"Parking permits are renewed every quarter.\n\n- Permit contact:\n  - Milan employees: Facilities-Parking Permits\n  - Other offices: see the list of parking permit contacts\n"},
		{"Chi può chiedere il permesso di parcheggio?",
			"I permessi di parcheggio si rinnovano ogni trimestre.\n\n- Referente:\n  - Dipendenti Milano: servizio permessi di parcheggio\n  - Altre sedi: vedere l'elenco dei referenti per i permessi di parcheggio\n"},
		// A figure given as an example, in the sentence or on the line
		// a "For example:" announces (illustrative, shownAsExample).
		{"How many retries should the client make?",
			"Set the number of retries the client makes to suit the service (e.g. 3 retries for a fast API)."},
		{"Quanti tentativi deve fare il client?",
			"Impostate il numero di tentativi del client secondo il servizio (ad esempio 3 tentativi per un'API veloce)."},
		{"Which year goes in the copyright notice?",
			"Put the owner in the copyright notice. For example:\n\nCopyright (c) 2019 Example Widgets\n\nThe year in the notice is the year the work was first released."},
		{"In che anno va l'avviso di copyright?",
			"Nell'avviso di copyright va il titolare. Ad esempio:\n\nCopyright (c) 2019 Esempio Srl\n\nL'anno dell'avviso è l'anno in cui l'opera è stata pubblicata la prima volta."},
	} {
		if lead, quote := leadOf(t, c.question, c.text); lead != "" {
			t.Errorf("%q: lead %q over %q, want none", c.question, lead, quote)
		}
	}
}

// A sentence about a neighbouring case gets no lead when another sentence
// names the question's case.
func TestNoLeadForANeighbouringCase(t *testing.T) {
	capital := "In provincial capitals the hotel allowance is 120 euro per night."
	town := "Staff travelling to small towns may book rooms of 90 euro per night at most."
	lead, quote := leadOf(t, "What is the hotel allowance per night in a small town?", capital, town)
	if lead == "120 euro" || lead != "" && !strings.Contains(quote, "small towns") {
		t.Errorf("lead %q over %q", lead, quote)
	}
}

func TestRowLeadReadsTheHeader(t *testing.T) {
	table := "Priority | Example | First reply | Updates\nP1 | Service down | 30 minutes | Every hour\nP2 | Slow pages | 4 hours | Every 8 hours"
	for q, want := range map[string]string{
		"How quickly do we reply to a P2?":         "First reply: 4 hours",
		"How often are updates sent for a P1?":     "Updates: Every hour",
		"Entro quanto tempo rispondiamo a un P2?":  "",
		"How long until the first reply for a P1?": "First reply: 30 minutes",
	} {
		if lead, _ := leadOf(t, q, table); lead != want {
			t.Errorf("%q: lead %q, want %q", q, lead, want)
		}
	}
	// Two durations, and the question names neither column.
	fixes := "Priority | Acknowledge | Resolve\nP1 | 15 minutes | 4 hours\nP2 | 1 hour | 2 days"
	if lead, _ := leadOf(t, "How long does a P2 take?", fixes); lead != "" {
		t.Errorf("two durations, neither named: lead %q", lead)
	}
	if lead, _ := leadOf(t, "How long do we have to resolve a P2?", fixes); lead != "Resolve: 2 days" {
		t.Errorf("the named column: lead %q", lead)
	}
	orders := "Order value | Signs | Offers needed\nUp to 500 euro | Team lead | 1 offer\nFrom 500.01 to 8,000 euro | Head of unit | 2 offers\nOver 8,000 euro | Finance director | 3 offers"
	if lead, _ := leadOf(t, "Who signs an order of 2,300 euro?", orders); lead != "Signs: Head of unit" {
		t.Errorf("person in a range's row: lead %q", lead)
	}
	if lead, _ := leadOf(t, "How many offers do I need for an order of 2,300 euro?", orders); lead != "Offers needed: 2 offers" {
		t.Errorf("count in a range's row: lead %q", lead)
	}
}

func TestProcedureQuotesTheInstruction(t *testing.T) {
	text := "Suspicious messages include fake invoices, spoofed logins and phishing attachments.\n\n" +
		"- Forward suspicious messages to abuse@example.org, then delete them from your inbox.\n- Never open the attachment."
	got, _, _ := ExtractSpan("How do I forward a phishing message?", []fonte.Chunk{{ID: "a", Text: text}})
	if !strings.Contains(got, "abuse@example.org") {
		t.Errorf("quoted %q, not the instruction", got)
	}
}

func TestPersonLead(t *testing.T) {
	for _, c := range []struct{ question, text, lead string }{
		{"Who do I call if I am locked out?", "If you are locked out, call the facilities desk on extension 2200.", "the facilities desk"},
		{"Who do I call if I am locked out?", "If you are locked out, call the desk.", ""},
		{"Who signs the travel request?", "Travellers fill in the form, and the Head of Travel Services signs the request.", "the Head of Travel Services"},
		{"Chi firma la richiesta di trasferta?", "Il viaggiatore compila il modulo e la richiesta è firmata dal responsabile dell'ufficio viaggi.", "responsabile dell'ufficio"},
		// The name of whoever did it; "personale" is also the adjective
		// "personal", no group of people.
		{"Chi ha scritto la guida?", "La guida è stata scritta da Anna Neri come promemoria personale.", "Anna Neri"},
		{"Who wrote the guide?", "The guide was written by Anna Neri as a personal memo.", "Anna Neri"},
	} {
		if lead, _ := leadOf(t, c.question, c.text); lead != c.lead {
			t.Errorf("%q: lead %q, want %q", c.question, lead, c.lead)
		}
	}
}

// fonte chunks a table a row at a time, each cell with its column's name.
func TestLabelledRowLead(t *testing.T) {
	row := "Priority: P2 | Example: Slow pages | First reply: 4 hours | Updates: Every 8 hours"
	for q, want := range map[string]string{
		"How often are updates sent for a P2?":     "Updates: Every 8 hours",
		"How long until the first reply for a P2?": "First reply: 4 hours",
	} {
		if lead, _ := leadOf(t, q, row); lead != want {
			t.Errorf("%q: lead %q, want %q", q, lead, want)
		}
	}
	if _, _, ok := labelledRow("Plain | table | row"); ok {
		t.Errorf("a row without labels read as labelled")
	}
}

// A heading that states the rule leads when the sentence under it, which
// explains the rule, states no figure of the asked kind; a heading that
// states none, or more than one, gives no lead, and a sentence's own
// figure comes first.
func TestHeadingStatesTheRule(t *testing.T) {
	section := func(heading, text string) fonte.Chunk {
		return fonte.Chunk{ID: "a", Headings: []string{"Ruby style", heading}, Text: text}
	}
	for _, c := range []struct {
		question string
		chunk    fonte.Chunk
		lead     string
	}{
		{"What's the maximum line length in our Ruby code?",
			section("Maximum line length of 100 characters", "The community guide prefers a maximum line length of 80. Most of our lines need more."), "100 characters"},
		{"Quanti caratteri può avere al massimo una riga nel nostro codice Ruby?",
			section("Lunghezza massima delle righe: 100 caratteri", "La guida della comunità preferisce una lunghezza massima delle righe di 80. Molte righe ne richiedono di più."), "100 caratteri"},
		{"What's the maximum line length in our Ruby code?",
			section("Method length", "The community guide prefers a maximum line length of 80. Most of our lines need more."), ""},
		{"What's the maximum line length in our Ruby code?",
			section("Method length: 100 characters, or 120 characters in tests", "The community guide prefers a maximum line length of 80. Most of our lines need more."), ""},
		{"What's the maximum line length in our Ruby code?",
			section("Maximum line length of 100 characters", "Keep the line length of our Ruby code under 90 characters."), "90 characters"},
	} {
		got, n, _ := ExtractSpan(c.question, []fonte.Chunk{c.chunk})
		if n == 0 {
			t.Fatalf("%q: nothing quoted", c.question)
		}
		lead, _, _ := strings.Cut(got, " — ")
		if !strings.Contains(got, " — ") {
			lead = ""
		}
		if lead != c.lead {
			t.Errorf("%q under %q: lead %q, want %q (answer %q)", c.question, c.chunk.Headings[1], lead, c.lead, got)
		}
	}
}

// A span governed by "without", "except" (senza, tranne) in its clause
// is what the answer is not, and never leads.
func TestExcludedSpanNeverLeads(t *testing.T) {
	for _, c := range []struct{ question, text string }{
		{"Where do the desktops mount USB sticks?", "Desktops mount USB sticks automatically without an entry in \"/etc/fstab\"."},
		{"Dove si montano le chiavette USB sui desktop?", "I desktop montano le chiavette USB senza una voce in \"/etc/fstab\"."},
		{"When is the canteen open?", "The canteen is open every day except Sunday."},
		{"Quando è aperta la mensa?", "La mensa è aperta tutti i giorni tranne la domenica."},
	} {
		got, _, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if strings.Contains(got, " — ") {
			t.Errorf("%s: answer %q is led by what the sentence excludes", c.question, got)
		}
	}
}

// A question's figure written in words ("sei anni") is the case it asks
// about: the item of another case ("oltre 15 anni: 8 ore") never leads,
// and "6 ore" is not the question's own "six years".
func TestNeighbouringCaseOfAFigureInWordsNeverLeads(t *testing.T) {
	for _, c := range []struct{ question, text, wrong string }{
		{"Quante ore di ferie maturo per periodo di paga dopo sei anni di servizio?",
			"Le ferie maturano in base agli anni di servizio:\n\n- meno di 3 anni: 4 ore per periodo di paga\n- tra 3 e 15 anni: 6 ore per periodo di paga\n- oltre 15 anni: 8 ore per periodo di paga",
			"8 ore"},
		{"How many hours of leave do I earn per pay period after six years of service?",
			"Leave accrues with service. With more than 15 years of service you earn 8 hours per pay period.",
			"8 hours"},
	} {
		got, _, _ := ExtractSpan(c.question, []fonte.Chunk{{ID: "c", Text: c.text}})
		if strings.HasPrefix(got, c.wrong+" — ") {
			t.Errorf("%s: answer %q leads with another case's figure", c.question, got)
		}
	}
	l := leader{figures: figures("after six years of service"), figureUnits: figureUnits("after six years of service")}
	if !l.otherUnit("6 hours") || l.otherUnit("6 years") || l.otherUnit("6") {
		t.Errorf("otherUnit: 6 hours is not six years, 6 years and a bare 6 are")
	}
	if !outOfRange(numbers("dopo sei anni"), "oltre 15 anni: 8 ore") || outOfRange(numbers("dopo sei anni"), "tra 3 e 15 anni: 6 ore") {
		t.Errorf("outOfRange: 'oltre 15 anni' excludes six years, 'tra 3 e 15 anni' holds it")
	}
}

// The only figure of a sentence leads only when its clause holds the
// question's words that the sentence's other clauses hold: after a
// semicolon or a "but" (ma, mentre) another case begins.
func TestFigureOfAnotherClauseNeverLeads(t *testing.T) {
	for _, c := range []struct{ question, text, lead string }{
		{"How long do refunds abroad take?", "Domestic refunds take 10 working days; refunds abroad are set by the finance team case by case.", ""},
		{"Quanto tempo richiedono i rimborsi dall'estero?", "I rimborsi nazionali richiedono 10 giorni lavorativi, mentre per i rimborsi dall'estero decide l'ufficio finanza.", ""},
		{"How long do domestic refunds take?", "Domestic refunds take 10 working days; refunds abroad are set by the finance team case by case.", "10 working days"},
		{"How long do refunds take?", "Refunds take 10 working days.", "10 working days"},
	} {
		if lead, quote := leadOf(t, c.question, c.text); lead != c.lead {
			t.Errorf("%s: lead %q (quote %q), want %q", c.question, lead, quote, c.lead)
		}
	}
}

// When the sentence with the question's words and the one with the
// figure asked for follow each other in a paragraph, the pair is quoted,
// over a sentence elsewhere that shares as many words but states no
// figure; the figure of the next sentence does not lead.
func TestQuotesTheSentenceWhoseFactGoesOnInTheNext(t *testing.T) {
	for _, c := range []struct{ question, text, want string }{
		{"How often must access to the secrets vault be reviewed?",
			"The vault lists who may access the secrets and what they may do with them.\n\nAccess must be reviewed whenever people change teams. Reviews also happen on a fixed cadence, every month.",
			"every month"},
		{"Ogni quanto vanno controllati gli accessi all'archivio dei segreti?",
			"L'archivio elenca chi ha accesso ai segreti e cosa può farne.\n\nGli accessi vanno controllati quando una persona cambia gruppo. Il controllo si ripete inoltre ogni mese.",
			"ogni mese"},
	} {
		lead, quote := leadOf(t, c.question, c.text)
		if !strings.Contains(quote, c.want) {
			t.Errorf("%s: quote %q, want it to hold %q", c.question, quote, c.want)
		}
		if lead != "" {
			t.Errorf("%s: lead %q, want none (the figure is the next sentence's)", c.question, lead)
		}
	}
}
