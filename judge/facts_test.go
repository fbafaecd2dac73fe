package judge

import (
	"reflect"
	"testing"
)

// TestParseDigits pins the number formats of both languages.
func TestParseDigits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"250", 250, true}, {"8", 8, true}, {"1,000.50", 1000.5, true}, {"1.000,50", 1000.5, true},
		{"1,5", 1.5, true}, {"3.5", 3.5, true}, {"1.500", 1500, true}, {"1,500", 1500, true},
		{"1.000.000", 1e6, true}, {"1\u00a0000", 1000, true}, {"3.1.1", 0, false}, {"1.2.3", 0, false},
		{"12,34.5", 0, false}, {"1.000.00", 0, false},
	} {
		got, ok := parseDigits(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("parseDigits(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestWordNumber pins the number words of both languages.
func TestWordNumber(t *testing.T) {
	for in, want := range map[string]float64{"two": 2, "twelve": 12, "twenty-four": 24, "due": 2, "dieci": 10,
		"ventiquattro": 24, "trentuno": 31, "ventotto": 28, "ventitre": 23, "cento": 100,
		"centoventi": 120, "duecentocinquanta": 250, "trecento": 300, "terza": 3, "fifth": 5} {
		if got, ok := wordNumber(in); !ok || got != want {
			t.Errorf("wordNumber(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"house", "tretre", "venti-due", "centocento", "secondo", "first"} {
		if _, ok := wordNumber(in); ok {
			t.Errorf("wordNumber(%q) is a number", in)
		}
	}
}

// TestExtract pins which words are key facts and how they read.
func TestExtract(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"26 working days of annual leave", []string{"26 working day"}},
		{"Up to €250 per night", []string{"250 euro"}},
		{"Fino a 1.000,50 euro", []string{"1000.5 euro"}},
		{"50 per cent of the cost", []string{"50 percent"}},
		{"8 caratteri", []string{"8 character"}},
		{"One hundred and twenty characters", []string{"120 character"}},
		{"three thousand five hundred euro", []string{"3500 euro"}},
		{"twenty four days", []string{"24 day"}},
		{"one of them", nil},
		// "Due" before an Italian plural counts, in a sentence of
		// English names too; before an English word it is not a number.
		{"Due versioni: Node 20 or Node 22.", []string{"2 versioni", "20", "Node", "22"}},
		{"The fee is due within thirty days.", []string{"30 day"}},
		{"Reports are due date-stamped on Friday.", []string{"Friday"}},
		{"reviewed monthly or quarterly", []string{"monthly", "quarterly"}},
		{"reviewed every month or every three months", []string{"1 monthly", "1 quarterly"}},
		{"rivisto ogni tre mesi", []string{"1 quarterly"}},
		{"26 days of annual leave", []string{"26 day"}},
		{"8 tentativi", []string{"8 attempt"}},
		{"8 biglietti", []string{"8 biglietti"}},
		{"from 9:00 to 17:30", []string{"9:00", "17:30"}},
		{"at 2pm", []string{"14:00"}},
		{"12 or 14 days", []string{"12 day", "14 day"}},
		{"the 9-17 shift", []string{"9 shift", "17 shift"}},
		// A month beside its day is the date's, not a name of its own;
		// beside a year alone it is the only word that says the month.
		{"On Monday 3 March", []string{"Monday", "3 march"}},
		{"In March 2019", []string{"March", "2019"}},
		{"level -1", []string{"-1"}},
		{"9 days of annual leave in 2025", []string{"9 day", "2025"}},
		{"by 31 March", []string{"31 march"}},
		{"Two references", []string{"2 references"}},
		{"The due date", nil},
		{"Hai due giorni", []string{"2 day"}},
		{"Sei in ufficio", nil},
		{"Le tipologie sono sei: riuso e cloud", []string{"6"}},
		{"Centoventi caratteri", []string{"120 character"}},
		{"si passa alla terza fase", []string{"3 fase"}},
		{"one of the managers", nil},
		{"one day", []string{"1 day"}},
		{"Run `fonte index DIR` first", []string{"fonte index DIR"}},
		{"Click \"Save as\" in the menu", []string{"Save as"}},
		{"Write to phishing@example.org today", []string{"phishing@example.org"}},
		{"See https://example.org/help/ now", []string{"https://example.org/help/"}},
		{"Call +39 02 1234 5678 now", []string{"+39 02 1234 5678"}},
		{"Edit /etc/fstab and config.yaml", []string{"/etc/fstab", "config.yaml"}},
		{"Use form HR-12 or A4 paper", []string{"HR-12", "A4"}},
		{"Support $(DESTDIR) and --prefix", []string{"$(DESTDIR)", "--prefix"}},
		{"Ask the IT desk in London", []string{"IT", "London"}},
		{"London is far, e.g. in winter", nil},
		{"and/or the manager", nil},
		{"install ttf-mscorefonts-installer, keep it up-to-date", []string{"ttf-mscorefonts-installer"}},
		{"See section 3.1.1", []string{"3.1.1"}},
		{"Cite sources [1] and [2, 3]", nil},
	} {
		var got []string
		for _, f := range extract(c.in) {
			got = append(got, f.text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("extract(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestLeadOf pins what an answer leads with.
func TestLeadOf(t *testing.T) {
	for _, c := range []struct {
		in, text string
		span     bool
	}{
		{"180 euro — • Hotel: up to 180 euro per night. [1]", "180 euro", true},
		{"The cap is 250 euro, e.g. in London. Meals are apart.", "The cap is 250 euro, e.g. in London.", false},
		{"You can — if your manager agrees — work from home, as the policy says in its long second section. More.", "You can — if your manager agrees — work from home, as the policy says in its long second section.", false},
		{"Il limite è 1.000,50 euro. Poi altro.", "Il limite è 1.000,50 euro.", false},
		{"- First item\n- Second item", "First item", false},
		{"Version 2.1 is out! Install it.", "Version 2.1 is out!", false},
	} {
		ld := leadOf(c.in)
		if ld.text != c.text || ld.span != c.span {
			t.Errorf("leadOf(%q) = %q (span %v), want %q (span %v)", c.in, ld.text, ld.span, c.text, c.span)
		}
	}
}

// TestPolarity pins how a sentence says yes or no.
func TestPolarity(t *testing.T) {
	for in, want := range map[string]string{
		"Yes, it is.": "yes", "No.": "no", "Sì, certo.": "yes", "Si può fare.": "yes", "No personal laptop may connect.": "no",
		"You cannot do that.": "no", "You can't.": "no", "Non è consentito.": "no", "È vietato fumare.": "no",
		"Submit it no later than Friday.": "yes", "Non oltre 30 giorni.": "yes", "Not only staff but guests too.": "yes",
		"Every meeting requires a password.": "yes", "You must never share it.": "no", "Saturday: closed": "no",
		"Sabato: chiusa": "no", "Smoking is prohibited.": "no", "Unused comp time is forfeited.": "no",
		"Probably not.": "no", "Not really, it is slow.": "no", "I think so.": "yes", "Credo di sì.": "yes", "Direi di no.": "no",
		"It does: the keys differ.": "yes", "They aren't.": "no", "Non credo.": "no",
	} {
		if got := polarityOf(in, "Can I?"); got != want {
			t.Errorf("polarityOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPolarityAgainstTheQuestion checks that a negative word the question
// uses itself does not say no, and that one it does not use does.
func TestPolarityAgainstTheQuestion(t *testing.T) {
	for _, c := range []struct{ sentence, question, want string }{
		{"Smoking is forbidden in the building.", "Is smoking forbidden?", "yes"},
		{"The office is closed on Saturday.", "Is the office closed on Saturday?", "yes"},
		{"Unused hours expire at the end of the year.", "Do unused hours expire?", "yes"},
		// Abolished, repealed: what no longer exists.
		{"The old intranet, abolished in 2021, handed its pages to the wiki.", "Does the old intranet still exist?", "no"},
		{"Le funzioni dell'albo, soppresso dalla legge, sono passate al registro regionale.", "Il vecchio albo esiste ancora?", "no"},
		{"The rule was repealed last year.", "Was the rule repealed?", "yes"},
	} {
		if got := polarityOf(c.sentence, c.question); got != c.want {
			t.Errorf("polarityOf(%q, %q) = %s, want %s", c.sentence, c.question, got, c.want)
		}
	}
}

// TestAbstention pins the abstentions of both languages and what is not
// one.
func TestAbstention(t *testing.T) {
	for _, in := range []string{"I don't know.", "I do not know.", "I don’t know what the cap is.", "Non lo so.",
		"Non ho trovato nulla nei documenti.", "I couldn't find this in the documents.", "The documents do not mention a cap.",
		"Nessuna informazione sul tema.", "I documenti non menzionano il limite.", "I cannot answer from these sources.",
		"Not sure; the guidance doesn't specify it.", "There's no information on the limit in what I searched."} {
		if !saysItDoesNotKnow(in) {
			t.Errorf("%q is not read as an abstention", in)
		}
	}
	for _, in := range []string{"You should know the rules.", "Find the form on the intranet.", "Non sono ammessi animali."} {
		if saysItDoesNotKnow(in) {
			t.Errorf("%q is read as an abstention", in)
		}
	}
}
