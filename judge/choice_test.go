package judge

import "testing"

// TestOtherSideOfAChoice pins that an answer whose first sentence names
// only the other side of the question's choice contradicts a reference
// that picks one side, in both languages; naming the reference's side,
// or the other side only as what it is compared against, does not.
func TestOtherSideOfAChoice(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"the other side", "Who signs the purchase order, the buyer or the supplier?", "The buyer.", "The supplier signs it when the goods arrive.", Misleading},
		{"the reference's side", "Who signs the purchase order, the buyer or the supplier?", "The buyer.", "The buyer signs it when it is issued.", Right},
		{"l'altra scelta", "Il backup va fatto su disco o su nastro?", "Su nastro, ogni settimana.", "Su disco esterno.", Misleading},
		{"compared against", "Il backup va fatto su disco o su nastro?", "Su nastro, ogni settimana.",
			"Ogni settimana, perché è più sicuro rispetto al disco. [1]", Right},
		{"the other side in a quoted passage", "Should the service be written in Ruby or Python?", "Python.",
			"New services should be written in Ruby so that the team can maintain them. [1]", Misleading},
	})
}
