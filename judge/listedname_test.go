package judge

import "testing"

// TestNameListedBesideAFoundOne pins that a short answer listing a
// name of its own beside one of the reference's, in place of others
// it leaves out, is misleading in both languages; and that a list of
// the reference's names alone, or one of them alone, is not.
func TestNameListedBesideAFoundOne(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another name in the list", "Which databases do we support?", "Postgres, MariaDB and Oracle.", "Postgres and Redis.", Misleading},
		{"un altro nome", "Quali editor si usano?", "Emacs, Vim e Nano.", "Vim, Atom.", Misleading},
		{"the reference's names", "Which databases do we support?", "Postgres, MariaDB and Oracle.", "Postgres, MariaDB and Oracle.", Right},
		{"one of them", "Which databases do we support?", "Postgres, MariaDB and Oracle.", "Postgres and MariaDB.", Partial},
	})
}
