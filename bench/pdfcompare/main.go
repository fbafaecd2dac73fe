// Command pdfcompare measures fonte's PDF readers side by side against
// poppler's pdftotext on a corpus of PDFs (see corpus.sh): word recall and
// precision, glued words, 5-word sequences kept across columns, U+FFFD,
// time per page, memory and the parser's warnings (pages flagged by the
// page check, image-only or skipped), per file and summed, as a Markdown
// table. The measures are defined in metrics.go.
//
//	go run ./pdfcompare [-readers native,pdfium,pdfium-raw] DIR
//
// The readers: "native" is fonte's own content-stream reader
// (pdf.ParsePDFNative), "pdfium" is pdf.ParsePDF (PDFium's text with
// fonte's layout logic: paragraphs, running headers and footers removed,
// hyphenation joined), "pdfium-raw" is PDFium's own page text
// (pdf.PDFPageTexts). Run it alone on the machine: it times things.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/fonte-rag/fonte/ingest"
	"github.com/fonte-rag/fonte/ingest/pdf"
)

func main() {
	readers := flag.String("readers", "native,pdfium,pdfium-raw", "readers to measure, comma-separated")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: pdfcompare [-readers LIST] DIR (a folder of PDFs, see corpus.sh)")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), strings.Split(*readers, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "pdfcompare:", err)
		os.Exit(1)
	}
}

// result is one reader on one file.
type result struct {
	file, reader string
	pages        int
	status       string // "ok" or the refusal
	warnings     int    // Parsed.Warnings: pages flagged by the page check, image-only or skipped
	s            score
	elapsed      time.Duration
	rssMB        float64 // peak resident set growth while reading
	allocMB      float64 // Go heap allocated while reading
}

func run(dir string, readers []string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no PDFs in %s (build the corpus with corpus.sh)", dir)
	}
	sort.Strings(files)
	startup, err := pdf.PDFiumStartup()
	if err != nil {
		return err
	}
	var results []result
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		ref, pages, refTime, refErr := pdftotext(f)
		name := filepath.Base(f)
		status := "ok"
		if refErr != nil {
			status = "refused: " + refErr.Error()
		}
		results = append(results, result{file: name, reader: "pdftotext", pages: pages, status: status,
			s: compare(ref, ref), elapsed: refTime})
		for _, r := range readers {
			res := measure(r, name, raw)
			res.pages = pages
			res.s = compare(ref, res.text)
			results = append(results, res.result)
			fmt.Fprintf(os.Stderr, "%s %s %v %s\n", name, r, res.elapsed.Round(time.Millisecond), res.status)
		}
	}
	printTable(os.Stdout, results, append([]string{"pdftotext"}, readers...), startup)
	return nil
}

// measured is a result and the text it scored.
type measured struct {
	result
	text string
}

func measure(reader, name string, raw []byte) measured {
	runtime.GC()
	resetPeakRSS()
	rss0 := rssMB()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	text, warnings, err := read(reader, name, raw)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&m1)
	out := measured{result: result{file: name, reader: reader, status: "ok", elapsed: elapsed,
		warnings: warnings,
		rssMB:    max(0, peakRSSMB()-rss0),
		allocMB:  float64(m1.TotalAlloc-m0.TotalAlloc) / (1 << 20)}, text: text}
	if err != nil {
		out.status = refusalText(err)
	}
	return out
}

func read(reader, name string, raw []byte) (string, int, error) {
	var p *ingest.Parsed
	var err error
	switch reader {
	case "native":
		p, err = pdf.ParsePDFNative(name, raw)
	case "pdfium":
		p, err = pdf.ParsePDF(name, raw)
	case "pdfium-raw":
		pages, err := pdf.PDFPageTexts(raw)
		return strings.Join(pages, "\n"), 0, err
	default:
		return "", 0, fmt.Errorf("unknown reader %q", reader)
	}
	if err != nil {
		return "", 0, err
	}
	return p.Doc.Text, len(p.Warnings), nil
}

// refusalText is the reason of a refusal, without the file name.
func refusalText(err error) string {
	var r *ingest.Refusal
	if errors.As(err, &r) {
		return "refused: " + string(r.Reason)
	}
	return "error: " + err.Error()
}

// pdftotext runs poppler's pdftotext (default layout, UTF-8) and pdfinfo
// for the page count.
func pdftotext(path string) (string, int, time.Duration, error) {
	start := time.Now()
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	elapsed := time.Since(start)
	if errors.Is(err, exec.ErrNotFound) {
		fmt.Fprintln(os.Stderr, "pdfcompare: pdftotext not found: install poppler-utils")
		os.Exit(1)
	}
	pages := 0
	if info, ierr := exec.Command("pdfinfo", path).Output(); ierr == nil {
		for _, l := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(l, "Pages:"); ok {
				fmt.Sscan(strings.TrimSpace(v), &pages)
			}
		}
	}
	if err != nil {
		return "", pages, elapsed, errors.New("pdftotext failed")
	}
	return string(bytes.ToValidUTF8(out, []byte("\uFFFD"))), pages, elapsed, nil
}
