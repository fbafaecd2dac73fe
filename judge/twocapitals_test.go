package judge

import "testing"

// TestTwoCapitalsOpenAName pins that a word opened by two capitals
// ("RSpec", "JRuby") is a name even as a sentence's first word, so an
// answer that names another tool in its place contradicts it and one
// that names it states it, in both languages.
func TestTwoCapitalsOpenAName(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{"another tool", "Should we write the browser tests in Selenium?", "No. PWright is preferred over Selenium.", "No, use Cypress instead.", Misleading},
		{"the tool", "Should we write the browser tests in Selenium?", "No. PWright is preferred over Selenium.", "No, use PWright instead.", Right},
		{"un altro strumento", "Scriviamo i test del browser in Selenium?", "No. PWright è preferito a Selenium.", "No, meglio Cypress.", Misleading},
	})
	if !camelCase([]rune("RSpec")) || camelCase([]rune("Spec")) || camelCase([]rune("SPEC")) {
		t.Error("camelCase: RSpec is a name by its form, Spec and SPEC are not camel case")
	}
}
