package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fonte-rag/fonte/engine"
)

// count is n and noun, plural unless n is 1 ("1 chunk", "0 chunks",
// "2 queries"): the nouns it is given take -s, or -ies after a consonant.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok && stem != "" && !strings.ContainsAny(stem[len(stem)-1:], "aeiou") {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printIndexReport tells a person what an index run did: the files, the
// chunks, each refusal with its reason, and the text addressed to a model
// that it found, kept apart from the hidden text it dropped, each passage
// named by file and chunk.
func printIndexReport(out io.Writer, report *engine.IndexReport) {
	fmt.Fprintf(out, "indexed %s; %d unchanged, %d removed, %d refused, %d skipped (unsupported type)\n",
		count(len(report.Indexed), "file"), report.Unchanged, len(report.Removed), len(report.Refused), report.Skipped)
	fmt.Fprintf(out, "embedded %s; the index holds %s (generation %d, %s)\n",
		count(report.ChunksEmbedded, "chunk"), count(report.Chunks, "chunk"), report.Generation, report.Duration.Round(time.Millisecond))
	for _, r := range report.Refused {
		fmt.Fprintf(out, "refused %s: %s\n", r.Path, r.Reason)
	}
	var kept, dropped []engine.Flag
	for _, f := range report.Flagged {
		if f.Chunk < 0 {
			dropped = append(dropped, f)
		} else {
			kept = append(kept, f)
		}
	}
	if len(kept) > 0 {
		fmt.Fprintf(out, "found %s addressed to a model in %s of %s, kept as material (fenced and marked for a model, never quoted as an answer):\n",
			count(len(kept), "passage"), count(report.FlaggedChunks(), "chunk"), count(filesOf(kept), "file"))
		for _, f := range kept {
			fmt.Fprintf(out, "  %s#%d (%s): %s\n", f.Path, f.Chunk, f.Kind, snippet(f.Text, 120))
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(out, "dropped text hidden from readers in %s, so it is not indexed:\n", count(filesOf(dropped), "file"))
		for _, f := range dropped {
			fmt.Fprintf(out, "  %s: %s\n", f.Path, strings.TrimSuffix(snippet(f.Text, 120), " (dropped)"))
		}
	}
}

// filesOf counts the distinct files of flags.
func filesOf(flags []engine.Flag) int {
	files := map[string]bool{}
	for _, f := range flags {
		files[f.Path] = true
	}
	return len(files)
}
