package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scanned page (ingest/testdata/ocr) is inspected and indexed with its
// OCR marks: the page's confidence in inspect's output and page mark, and
// the OCR page counted in the index report.
func TestInspectAndReportOCR(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "ingest", "testdata", "ocr", "it-page.tiff"))
	if err != nil {
		t.Fatal(err)
	}
	docs := t.TempDir()
	writeFile(t, filepath.Join(docs, "scan.tiff"), raw)
	code, out, stderr := runCLI(t, "inspect", filepath.Join(docs, "scan.tiff"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"accepted (image)", "language: it", "tags: ocr", "ocr: page 1, mean word confidence 9", "--- page 1 (OCR, confidence 9"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, out)
		}
	}
	report := filepath.Join(t.TempDir(), "report.json")
	if code, _, stderr := runCLI(t, "index", docs, "--index", filepath.Join(t.TempDir(), "idx"), "--report", report); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	lines := readReport(t, report)
	if len(lines) != 1 || lines[0].Status != "indexed" || lines[0].OCRPages != 1 || lines[0].Pages != 1 {
		t.Errorf("report %+v, want scan.tiff indexed with 1 OCR page", lines)
	}
}
