package pdf

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/parse"
)

// TestPDFiumConcurrent: Parse calls from many goroutines share the pool
// (at most pdfiumInstances engines at once) and get their own text; no
// goroutine is left behind once they are done.
func TestPDFiumConcurrent(t *testing.T) {
	if _, err := PDFiumStartup(); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf("Document number %d describes the expense policy of office %d in detail.", i, i)
			p, err := ParsePDF(fmt.Sprintf("doc%d.pdf", i), ingesttest.MakePDF(t, "", []ingesttest.PDFPage{{Paras: []string{want}}}))
			switch {
			case err != nil:
				errs <- err
			case p.Doc.Text != want:
				errs <- fmt.Errorf("doc %d: %q", i, p.Doc.Text)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitGoroutines(t, before)
}

// waitGoroutines fails unless the goroutine count comes back to at most
// want within a few seconds.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), want, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPDFiumTimeoutStopsEngine: a document that runs past the time limit
// (per page, and for opening it) is refused, its engine instance is stopped (no goroutine keeps running
// it) and the pool goes on serving.
func TestPDFiumTimeoutStopsEngine(t *testing.T) {
	if _, err := PDFiumStartup(); err != nil {
		t.Fatal(err)
	}
	var pages []ingesttest.PDFPage
	for i := range 300 {
		pages = append(pages, ingesttest.PDFPage{Paras: []string{strings.Repeat(fmt.Sprintf("Line %d of a long manual with many pages. ", i), 30)}})
	}
	big := ingesttest.MakePDF(t, "", pages)
	before := runtime.NumGoroutine()
	old := pdfTimeout
	pdfTimeout = func(int) time.Duration { return time.Microsecond }
	start := time.Now()
	_, err := ParsePDF("big.pdf", big)
	pdfTimeout = old
	r := ingesttest.WantRefusal(t, err, parse.ReasonUnreadable)
	if !strings.Contains(r.Detail, "gave up") {
		t.Errorf("detail %q", r.Detail)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to give up after 1µs", d)
	}
	waitGoroutines(t, before)
	p, err := ParsePDF("small.pdf", ingesttest.MakePDF(t, "", []ingesttest.PDFPage{{Paras: []string{"After a stopped engine the pool still reads files."}}}))
	if err != nil || p.Doc.Text != "After a stopped engine the pool still reads files." {
		t.Errorf("after the timeout: %v %+v", err, p)
	}
}
