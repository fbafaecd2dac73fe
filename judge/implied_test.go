package judge

import "testing"

// TestPolarityImpliedByItsReason pins that an answer stating, in its
// words, the reason a reference gives for its yes or no states the yes
// or no, and that one saying the opposite does not; and that a "non"
// which says no "no" is not read as one.
func TestPolarityImpliedByItsReason(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the reason after the no", "Does the refund wait for the audit to finish?", "No, finance can pay it once the claim is approved.",
			"Once the claim is approved, finance can pay it. [1]", Right},
		{"the reason in Italian", "Va bene usare 1234 come PIN?", "No, è una scelta pessima.",
			"Sequenze semplici come 1234 o 0000 sono tutte scelte pessime per un PIN. [1]", Right},
		{"the reason denied", "Does the refund wait for the audit to finish?", "Yes, finance can pay it only once the audit is closed.",
			"Finance cannot pay it once the audit is closed. [1]", Misleading},
		{"a one-word reason implies nothing", "Can I bring a guest?", "No, never.",
			"Guests are welcome in the lobby. [1]", Wrong},
		{"a non- prefix", "Does the scan run on every update?", "Yes, on all updates, security or not.",
			"The scan runs on non-security updates as well as security ones. [1]", Right},
		// A negation that grants: an obstacle denied at the opening.
		{"nessun divieto", "Si può pubblicare il codice su GitHub?", "Sì, GitHub è tra le piattaforme ammesse.",
			"Non c'è alcun divieto: GitHub è tra le piattaforme ammesse.", Right},
		{"no problem", "Can we publish the code on GitHub?", "Yes, GitHub is one of the allowed platforms.",
			"No problem, GitHub is one of the allowed platforms.", Right},
		{"a plain no stays no", "Can we publish the code on GitHub?", "Yes, GitHub is one of the allowed platforms.",
			"No, GitHub is not one of the allowed platforms.", Misleading},
		// A wait denied is no "no" unless the question asks about waiting.
		{"a wait denied to a yes", "Va pubblicato il codice prima del collaudo?", "Sì, prima del collaudo.",
			"Non bisogna aspettare il collaudo: va pubblicato prima.", Right},
		{"a wait denied to a question on waiting", "Bisogna aspettare la firma del contratto?", "No, si procede subito.",
			"Non bisogna aspettare la firma del contratto: si procede subito.", Right},
		// A "non" that says no "no": "non … solo …, ma anche", a list
		// said "non esaustivo", a wait denied (which is at once).
		{"non with its verb before solo", "Il rimborso copre anche i pasti?", "Sì, anche i pasti e il pernottamento.",
			"Il rimborso non copre solo il viaggio, ma anche i pasti e il pernottamento. [1]", Right},
		{"a list said open", "Il regolamento vale anche per i tirocinanti?", "Sì, anche per tirocinanti e consulenti.",
			"Un elenco non esaustivo dei destinatari del regolamento: dipendenti, tirocinanti e consulenti. [1]", Right},
		{"a wait denied", "Quando va inviata la segnalazione?", "Senza aspettare la chiusura del ticket.",
			"Non bisogna aspettare la chiusura del ticket.", Right},
		{"a wait said", "Quando va inviata la segnalazione?", "Senza aspettare la chiusura del ticket.",
			"Bisogna aspettare la chiusura del ticket.", Misleading},
	})
}

// TestWhatTheQuestionNames pins that what the question itself names is
// no other answer: its word beside a name negated with it, its file's
// path; nor is a section number, two words joined by a slash, or a page
// to see, another code.
func TestWhatTheQuestionNames(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the question's word in a negated name", "Can I use my course budget for books?", "Yes, through the course form; for non-course books an email to your manager is enough.",
			"You can also use your course budget to buy books for self-study. [1]", Wrong},
		{"pages to see", "What does lintian help avoid?", "RC (Release Critical) bugs, before the upload.",
			"(see lintian(1) and lintian-brush(1)) - perl - Perl is one of the [1]", Wrong},
		{"the question's file in a path", "Cosa bisogna impostare in nginx.conf per la compressione?", "GzipStatic on.",
			`Sul server impostare in "/etc/nginx/nginx.conf" le [2]`, Wrong},
		{"a section number", "Cosa bisogna impostare per l'inoltro dell'agente?", "AllowAgentForwarding yes.",
			"Inoltro dell'agente 6.3.9. [1]", Wrong},
		{"words joined by a slash", "Who can get the parking permit?", "All staff who commute by car/motorbike, once registered.",
			"Note: the approval process is manager/facilities review. [2]", Wrong},
		{"cells of a table apart", "What do I get per km with my own car?", "0.42 euro per kilometre.",
			"<tr><td>P1</td><td>You cannot work at all</td><td>Within 30 minutes</td></tr [2]", Wrong},
	})
}

// TestOwnWordInTheReferenceFrame pins that a short answer of its own
// that keeps the question's and the reference's words around one word of
// its own, where the reference names a thing, answers with that word; and that where the reference names nothing, a word of its own is
// most often a paraphrase ("comms" for communications).
func TestOwnWordInTheReferenceFrame(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"one word of its own", "Che shell devo usare negli script di avvio?", "La shell POSIX, per compatibilità con dash.",
			"Shell zsh.", Misleading},
	})
	q, ref, a := "Which two roles does a response team need?", "A response lead and a communications lead.", "You need a response lead and a comms lead."
	if got := Judge(q, ref, a, false); got.Verdict == Misleading {
		t.Errorf("Judge(%q, %q) = %s, a paraphrase of a reference that names nothing\n%+v", ref, a, got.Verdict, got)
	}
}

// TestAnotherFigureOfTheKindAsked pins that a quoted passage about the
// question whose only figure of the kind asked is another states it as
// the answer, and that one about something else does not.
func TestAnotherFigureOfTheKindAsked(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another lead time on the question's topic", "How far ahead must I request approval for a conference that costs more than $3,000?", "Four to six weeks in advance.",
			"Submit your conference request as early as possible. - Ten days to two weeks in advance for: - conference events that cost less than $3,000, [2]", Misleading},
		{"another topic's lead time", "How far ahead must I request approval for a conference that costs more than $3,000?", "Four to six weeks in advance.",
			"Printer toner is reordered two weeks before it runs out. Orders go through the supply portal. [2]", Wrong},
	})
}
