package answer

// opensSection reports whether sentence j of text is the first under a
// heading line inside the text that holds at least leadCoverage of the
// question's topic words: a section whose title names what is asked
// ("Project responsible owner") answers it in its first sentence
// ("Typically, the product or service manager."), which need not repeat
// the title's words, so it is not passed over for holding none of the
// question's own (the title's keys still count half, as a heading's do).
func opensSection(text string, spans [][2]int, j int, l leader) bool {
	if j == 0 || !headingLine(text, spans[j-1]) || len(l.topic) == 0 {
		return false
	}
	h := ContentKeys(text[spans[j-1][0]:spans[j-1][1]])
	return float64(l.held(h)) >= leadCoverage*float64(len(l.topic))
}
