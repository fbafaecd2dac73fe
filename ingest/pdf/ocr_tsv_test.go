package pdf

import (
	"slices"
	"strings"
	"testing"
)

func TestParseTSV(t *testing.T) {
	tsv := strings.Join(tsvColumns, "\t") + "\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tA\n" +
		"5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t80\tscan-\n" +
		"5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t70\tning\n" +
		"5\t1\t1\t1\t2\t2\t0\t0\t1\t1\t95\t \n" +
		"5\t1\t1\t2\t1\t1\t0\t0\t1\t1\t60\tNext.\n" +
		"5\t2\t1\t1\t1\t1\t0\t0\t1\t1\t40\tTwo\n"
	pages, err := parseTSV(tsv)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 {
		t.Fatalf("%d pages, want 2", len(pages))
	}
	if got := pages[0].paras; !slices.Equal(got, []string{"A scanning", "Next."}) {
		t.Errorf("paragraphs %q", got)
	}
	if pages[0].words != 4 || pages[0].conf != 75 || pages[1].page != 2 || pages[1].conf != 40 {
		t.Errorf("pages %+v, want 4 words at 75 then page 2 at 40", pages)
	}
	if _, err := parseTSV("Tesseract Open Source OCR Engine\n"); err == nil {
		t.Error("text that is not TSV was accepted")
	}
}
