package main

import (
	"fmt"
	"io"
	"time"
)

// meetsTargets reports whether a reader's result on a text PDF meets the
// issue's targets: recall and precision at least 0.98, no U+FFFD beyond
// the reference's, glued words at most 0.1% of words.
func meetsTargets(r result) bool {
	s := r.s
	return r.status == "ok" && s.recall() >= 0.98 && s.precision() >= 0.98 &&
		s.fffd <= s.refFFFD && s.gluedShare() <= 0.001
}

func printTable(w io.Writer, results []result, readers []string, startup time.Duration) {
	fmt.Fprintf(w, "PDFium start-up in this process: %v (compiling the WebAssembly engine, or loading it from the compilation cache)\n\n", startup.Round(time.Millisecond))
	fmt.Fprintln(w, "| file | pages | reader | status | recall | precision | U+FFFD (ref) | glued | glued ‰ | 5-word seqs kept | ms/page | peak RSS +MB | Go alloc MB | warnings | targets |")
	fmt.Fprintln(w, "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range results {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.3f | %.3f | %d (%d) | %d | %.2f | %.3f | %.1f | %.0f | %.0f | %d | %s |\n",
			r.file, r.pages, r.reader, r.status, r.s.recall(), r.s.precision(), r.s.fffd, r.s.refFFFD,
			r.s.gluedWords, 1000*r.s.gluedShare(), r.s.shingleShare(), msPerPage(r.elapsed, r.pages),
			r.rssMB, r.allocMB, r.warnings, targetMark(r))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Summed over the files pdftotext reads (words and sequences pooled; time over all pages):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| reader | files read | files meeting targets | recall | precision | U+FFFD (ref) | glued | glued ‰ | 5-word seqs kept | ms/page | max peak RSS +MB |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, name := range readers {
		var sum score
		var elapsed time.Duration
		pages, read, meet, textFiles := 0, 0, 0, 0
		peak := 0.0
		refOK := map[string]bool{}
		for _, r := range results {
			if r.reader == "pdftotext" && r.status == "ok" {
				refOK[r.file] = true
			}
		}
		for _, r := range results {
			if r.reader != name || !refOK[r.file] {
				continue
			}
			textFiles++
			sum = sum.add(r.s)
			elapsed += r.elapsed
			pages += r.pages
			peak = max(peak, r.rssMB)
			if r.status == "ok" {
				read++
			}
			if meetsTargets(r) {
				meet++
			}
		}
		fmt.Fprintf(w, "| %s | %d/%d | %d | %.3f | %.3f | %d (%d) | %d | %.2f | %.3f | %.1f | %.0f |\n",
			name, read, textFiles, meet, sum.recall(), sum.precision(), sum.fffd, sum.refFFFD, sum.gluedWords,
			1000*sum.gluedShare(), sum.shingleShare(), msPerPage(elapsed, pages), peak)
	}
}

func targetMark(r result) string {
	switch {
	case r.reader == "pdftotext":
		return "reference"
	case meetsTargets(r):
		return "yes"
	}
	return "no"
}

func msPerPage(d time.Duration, pages int) float64 {
	if pages == 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(pages)
}
