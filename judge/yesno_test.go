package judge

import "testing"

// TestYesNoInOtherWords judges yes/no answers said without "yes" or
// "no", in both languages: words that deny every case, a condition that
// restates the consent the reference's yes depends on, and a reason
// paraphrased.
func TestYesNoInOtherWords(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"never", "Is it allowed to share the password?", "No, it is forbidden.", "Never.", Right},
		{"under no circumstances", "Is it allowed to share the password?", "No, it is forbidden.", "Under no circumstances.", Right},
		{"mai", "È consentito condividere la password?", "No, è vietato.", "Mai.", Right},
		{"in nessun caso", "È consentito condividere la password?", "No, è vietato.", "In nessun caso.", Right},
		{"better not", "Should I run the beta on my laptop?", "No.", "Better not: it breaks often.", Right},
		{"meglio di no", "Conviene usare la beta sul portatile?", "No.", "Meglio di no: si rompe spesso.", Right},
		{"meglio di no against a yes", "Conviene aggiornare subito?", "Sì, subito.", "Meglio di no.", Misleading},
		{"never against a yes", "Do I need approval?", "Yes, always.", "Never.", Misleading},
		{"mai against a yes", "Serve un'autorizzazione?", "Sì, serve sempre.", "Mai.", Misleading},
		{"only if the consent the yes needs", "Can I work from home on Fridays?", "Yes, with your manager's agreement.",
			"Only if your manager agrees.", Right},
		{"solo se, con l'accordo", "Posso lavorare da casa il venerdì?", "Sì, con l'accordo del responsabile.",
			"Solo se il responsabile è d'accordo.", Right},
		{"only if, to a yes without a condition", "Can I work from home on Fridays?", "Yes, any employee can.",
			"Only if your manager agrees.", Misleading},
		{"solo se, to a no", "Posso lavorare da casa il venerdì?", "No.",
			"Solo se il responsabile è d'accordo.", Misleading},
	})
}

// TestYesNoWithItsReasonParaphrased judges a yes or no given with the
// reference's reason in other words: one of the reason's words kept
// makes it the reference's answer; a bare yes or no, or a reason that
// shares none of them, is partial.
func TestYesNoWithItsReasonParaphrased(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"no with the reason reworded", "Le credenziali di prova vanno scritte nel wiki pubblico?",
			"No: restano riservate fino alla scadenza del contratto, e solo dopo possono essere divulgate.",
			"No, vanno tenute riservate finché il contratto non scade, poi si possono diffondere.", Right},
		{"yes with the reason reworded", "Can we merge without a second review?",
			"Yes: after waiting a few days, if the reviewer stays silent the author may go ahead alone.",
			"Yes, once a few days have passed you can proceed on your own.", Right},
		{"a bare no", "Le credenziali di prova vanno scritte nel wiki pubblico?",
			"No: restano riservate fino alla scadenza del contratto, e solo dopo possono essere divulgate.",
			"No.", Partial},
		{"a no with a reason of its own", "Le credenziali di prova vanno scritte nel wiki pubblico?",
			"No: restano riservate fino alla scadenza del contratto, e solo dopo possono essere divulgate.",
			"No, il wiki è lento e nessuno lo legge.", Partial},
	})
}
