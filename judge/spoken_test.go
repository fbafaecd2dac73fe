package judge

import "testing"

// TestSaidInWords pins figures, yes/no answers and abstentions said in
// words where the reference writes them otherwise, in both languages:
// each states the same fact, or contradicts it, as the digits would.
func TestSaidInWords(t *testing.T) {
	for _, c := range []struct {
		question, reference, answer string
		want                        Verdict
	}{
		// The end of a month is its last day.
		{"By when must carried-over days be used?", "By 31 March.", "Before the end of March.", Right},
		{"Entro quando vanno usati i giorni residui?", "Entro il 31 marzo.", "Entro fine marzo.", Right},
		{"Entro quando va consegnato il modulo?", "Entro il 28 febbraio.", "Entro la fine di febbraio.", Right},
		{"By when must carried-over days be used?", "By 31 March.", "Before the end of April.", Misleading},
		// A proportion as a count out of a total.
		{"What share of packages build unchanged?", "About 90%.", "About nine out of ten.", Right},
		{"Su che percentuale di pacchetti funziona?", "Quasi il 90%.", "Circa nove pacchetti su dieci.", Right},
		{"Quanti utenti usano la app?", "Il 75%.", "3 su 4.", Right},
		{"What share of packages build unchanged?", "About 90%.", "About two out of three.", Wrong},
		// Italian approximate numerals.
		{"Dopo quanti giorni entra in testing?", "Circa 10 giorni.", "Dopo una decina di giorni.", Right},
		{"Quanto dura la pausa?", "Circa 20 minuti.", "Una ventina di minuti.", Right},
		{"Quanto dura la pausa?", "Circa 30 minuti.", "Una ventina di minuti.", Misleading},
		// Halves and one unit said with an article.
		{"How often is the review?", "Every two months.", "Every couple of months.", Right},
		{"Ogni quanto si fa la revisione?", "Ogni due mesi.", "Ogni paio di mesi.", Right},
		// A ratio said in words.
		{"What contrast does the text need?", "At least 7:1.", "At least seven to one.", Right},
		{"What contrast does the text need?", "At least 4.5:1.", "Four and a half to one.", Right},
		{"Che contrasto serve?", "Almeno 3:1.", "Almeno tre a uno.", Right},
		// A quarter of an hour; a couple of a unit.
		{"How long is the break?", "15 minutes.", "A quarter of an hour.", Right},
		{"Quanto dura la pausa?", "15 minuti.", "Un quarto d'ora.", Right},
		{"Quanto dura la pausa?", "30 minuti.", "Un quarto d'ora.", Misleading},
		{"How long does delivery take?", "2 weeks.", "A couple of weeks.", Right},
		{"Quanto dura la procedura?", "2 ore.", "Un paio d'ore.", Right},
		{"Quanto dura la procedura?", "2 giorni.", "Un paio di giorni.", Right},
		// A count said alone but for its limiting word, and "sei"
		// before a plural noun.
		{"How many chairs per desk?", "Only one.", "Just one.", Right},
		{"How many chairs per desk?", "Only one.", "Exactly two.", Misleading},
		{"Quante sono le sedi?", "Sei: Roma, Milano, Napoli, Torino, Bari e Genova.", "Sei sedi: Roma, Milano, Napoli, Torino, Bari e Genova.", Right},
		{"Quante sono le fasi?", "Tre fasi.", "Sei fasi.", Misleading},
		// A half after a unit named by its article or without its own
		// article, a number word joined to its unit, pixels as "px".
		{"How long is the induction?", "An hour and a half.", "90 minutes.", Right},
		{"How long is the induction?", "90 minutes.", "An hour and a half.", Right},
		{"How long is the induction?", "An hour and a half.", "One hour.", Misleading},
		{"Quanto dura l'incontro?", "Un'ora e mezza.", "90 minuti.", Right},
		{"How long does the course last?", "Two and a half days.", "The course lasts two and half days.", Right},
		{"How long is the induction?", "An hour and a half.", "One and a half days.", Misleading},
		{"How long is the grace period?", "A five-day grace period.", "5 days.", Right},
		{"How long is the grace period?", "A five-day grace period.", "A five-week grace period.", Misleading},
		{"How wide is the margin?", "A margin of 10px.", "Ten pixels.", Right},
		{"How wide is the margin?", "A margin of 10 pixels.", "10px.", Right},
		{"How long is the break?", "30 minutes.", "Half an hour.", Right},
		{"Quanto dura la pausa?", "30 minuti.", "Mezz'ora.", Right},
		{"Quanto dura la pausa?", "Un'ora.", "60 minuti.", Right},
		{"How long is the contract?", "12 months.", "A year.", Right},
		{"How long is the trial?", "14 days.", "A fortnight.", Right},
		{"How many hours a day?", "9.5 hours.", "Nine and a half hours.", Right},
		{"Quante ore al giorno?", "9,5 ore.", "Nove ore e mezza.", Right},
		{"Quante ore al giorno?", "9,5 ore.", "Nove e mezza.", Right},
		{"How long is the break?", "30 minutes.", "An hour.", Misleading},
		{"How long does it take?", "9 days.", "About a week.", Misleading},
		{"How long does it take?", "35 days.", "Around a month.", Misleading},
		{"How many hours a week?", "40 hours a week.", "40 hours a week.", Right},
		// The 1 of "a week" is no number to match another unit's 1: the
		// answer states no frequency, but contradicts none either.
		{"How often are passwords changed?", "Every 90 days.", "Passwords expire after 90 days; you are reminded a week before.", Wrong},
		// "due" before an Italian unit is two, in a text too short to
		// tell its language.
		{"Quanto dura la prova?", "Due settimane.", "14 giorni.", Right},
		// Cents of a currency.
		{"What is the mileage rate?", "0.42 dollars per mile.", "42 cents per mile.", Right},
		{"What is the mileage rate?", "$0.42 per mile.", "50 cents a mile.", Misleading},
		// Thousands and millions.
		{"Quanto costa?", "1.500 euro.", "Millecinquecento euro.", Right},
		{"Quanto costa?", "3.000 euro.", "Tremila euro.", Right},
		{"How much?", "1,500 euro.", "€1.5k.", Right},
		{"How much?", "2 million euro.", "2,000,000 euro.", Right},
		{"How much?", "2 million euro.", "3 million euro.", Misleading},
		// Named times of day, and the part of the day after an hour.
		{"When?", "At midday.", "At 12:00.", Right},
		{"A che ora?", "Alle 12:00.", "A mezzogiorno.", Right},
		{"A che ora chiude l'ufficio il venerdì?", "Alle 15:00.", "Alle 3 del pomeriggio.", Right},
		{"A che ora chiude l'ufficio il venerdì?", "Alle 15:00.", "Alle tre del pomeriggio.", Right},
		{"When does it open?", "At 9:00.", "At nine in the evening.", Misleading},
		// Frequencies as a count of times.
		{"How often?", "Annually.", "Once a year.", Right},
		{"How often?", "Every two weeks.", "Fortnightly.", Right},
		{"Ogni quanto?", "Due volte al mese.", "Twice a month.", Right},
		{"How often?", "Twice a week.", "Once a week.", Misleading},
		// A date's month beside its day is the date's.
		{"When is the deadline?", "17 October 2025.", "17/10/2025.", Right},
		// A unit's abbreviation after its figure is no code.
		{"How big can the file be?", "10 MB.", "10 megabytes.", Right},
		// Yes and no said otherwise.
		{"Is it allowed?", "Yes.", "Certainly.", Right},
		{"Is it allowed?", "No.", "Absolutely not.", Right},
		{"Is it allowed?", "Yes.", "Of course not.", Misleading},
		{"Is it allowed?", "No.", "Sure, go ahead.", Misleading},
		{"È consentito?", "No, è vietato.", "Non è permesso.", Right},
		{"Is it allowed?", "No, it is forbidden.", "It is not permitted.", Right},
		// Abstentions.
		{"Quanto?", "10 giorni.", "Non saprei.", Abstained},
		{"Quanto?", "10 giorni.", "I documenti non lo dicono.", Abstained},
		{"Quanto?", "10 giorni.", "Non risulta dai documenti.", Abstained},
	} {
		if got := Judge(c.question, c.reference, c.answer, false); got.Verdict != c.want {
			t.Errorf("Judge(%q, %q, %q) = %s (%s), want %s", c.question, c.reference, c.answer, got.Verdict, got.Why, c.want)
		}
	}
}
