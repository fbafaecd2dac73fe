package pdf

import (
	"strings"
	"testing"
	"time"

	"github.com/fonte-rag/fonte/ingest/internal/ingesttest"
	"github.com/fonte-rag/fonte/ingest/parse"
)

func TestPDFTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	oldTimeout := pdfTimeout
	defer func() { pdfTimeout = oldTimeout }()
	never := func(string, []byte) (*parse.Parsed, error) {
		<-release // a library loop that never ends
		return nil, nil
	}
	pdfTimeout = func(int) time.Duration { return 10 * time.Millisecond }
	_, err := pdfWithTimeout("slow.pdf", []byte("%PDF-1.4"), never)
	r := ingesttest.WantRefusal(t, err, parse.ReasonUnreadable)
	if !strings.Contains(r.Detail, "gave up") {
		t.Errorf("detail %q", r.Detail)
	}
}
