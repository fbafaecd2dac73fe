package main

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/fonte-rag/fonte/engine"
)

// printDocTable writes fonte status's table of documents, each column as
// wide as its widest cell (the id at least 50 wide), so that the columns
// stay aligned whatever the length of the ids.
func printDocTable(out io.Writer, docs []engine.DocStatus) {
	idW, nW, langW := 50, 3, 0
	langs := make([]string, len(docs))
	for i, d := range docs {
		lang := d.Language
		if lang == "" {
			lang = "?"
		}
		langs[i] = fmt.Sprintf("%s (analysis %s)", lang, d.Analysis)
		// Widths in runes, as fmt pads: an id may hold accented letters.
		idW = max(idW, utf8.RuneCountInString(d.ID))
		nW = max(nW, len(strconv.Itoa(d.Chunks)))
		langW = max(langW, utf8.RuneCountInString(langs[i]))
	}
	for i, d := range docs {
		fmt.Fprintf(out, "  %-*s %*d chunks  %-*s  updated %s\n", idW, d.ID, nW, d.Chunks, langW, langs[i], d.Updated.Format("2006-01-02"))
	}
}
