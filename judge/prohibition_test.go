package judge

import "testing"

// TestProhibitionSaysNo pins that a short answer forbidding what the
// question asks says no in both languages: against a yes it is
// misleading, for a no it states it.
func TestProhibitionSaysNo(t *testing.T) {
	yesEN := [2]string{"Can visitors park in the staff car park?", "Yes, at weekends, after signing in at reception."}
	yesIT := [2]string{"I visitatori possono usare il parcheggio del personale?", "Sì, nel fine settimana, dopo essersi registrati in portineria."}
	noEN := [2]string{"Can I take the laptop home?", "No."}
	noIT := [2]string{"Posso portare a casa il portatile?", "No."}
	runJudgeCases(t, []judgeCase{
		{"not permitted against a yes", yesEN[0], yesEN[1], "Not permitted.", Misleading},
		{"you can't against a yes", yesEN[0], yesEN[1], "You can't.", Misleading},
		{"vietato against a yes", yesIT[0], yesIT[1], "È vietato.", Misleading},
		{"non si può against a yes", yesIT[0], yesIT[1], "Non si può.", Misleading},
		{"forbidden for a no", noEN[0], noEN[1], "Forbidden.", Right},
		{"non è consentito for a no", noIT[0], noIT[1], "Non è consentito.", Right},
	})
}

// TestProhibitionNotAPlainNo pins that the same words to a question
// asking whether something is forbidden do not contradict its yes, and
// that a prohibition with an exception does not state a plain no.
func TestProhibitionNotAPlainNo(t *testing.T) {
	for _, c := range []struct {
		name, question, reference, answer string
		not                               Verdict
	}{
		{"forbidden to a question on a ban", "Is it forbidden to smoke on the terrace?", "Yes.", "Forbidden.", Misleading},
		{"vietato to a question on a ban", "È vietato fumare in terrazza?", "Sì.", "Vietato.", Misleading},
		{"a prohibition with an exception", "Can I take the laptop home?", "No.", "Not allowed unless your manager signs the form.", Right},
		{"un divieto con un'eccezione", "Posso portare a casa il portatile?", "No.", "Non è consentito senza la firma del responsabile.", Right},
	} {
		if got := Judge(c.question, c.reference, c.answer, false); got.Verdict == c.not {
			t.Errorf("%s: Judge(%q, %q) = %s (%s)", c.name, c.reference, c.answer, got.Verdict, got.Why)
		}
	}
}

// TestEllipticGrant pins that a short answer granting with a pronoun
// or a bare modal ("They can use it whenever they like", "Possono
// usarla") says yes, in both languages: against a no it is misleading,
// for a yes it states it.
func TestEllipticGrant(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"they can against a no", "Can interns use the rooftop terrace?", "No, the terrace is for staff only.",
			"They can use it whenever they like.", Misleading},
		{"possono against a no", "Gli stagisti possono usare la terrazza?", "No, la terrazza è riservata al personale.",
			"Possono usarla quando vogliono.", Misleading},
		{"they can for a yes", "Can interns use the rooftop terrace?", "Yes, after signing the terrace register.",
			"They can, after signing the register.", Right},
	})
}
