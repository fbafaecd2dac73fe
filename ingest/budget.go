package ingest

import "github.com/fonte-rag/fonte/ingest/office"

// DefaultLimits are the fonte command's per-run limits: far above a
// large handbook uploaded whole (a 1,500-page manual makes about 6,000
// chunks), far below what exhausts a small server (147,650 chunks took
// 1.5 GB of memory).
var DefaultLimits = Limits{ExpandedBytes: 256 << 20, Pages: 10_000, Chunks: 20_000}

// ParseWithin is Parse charged to a run's budget: an office package's
// inflated bytes as they are read, any other file's extracted text, and
// the pages of PDFs and presentations. It returns a *LimitError when the
// run goes over a limit, or the context's error once the run's context
// has ended; Stops tells those from a refusal of this one file. The
// parsed document records what it charged in Expanded.
func ParseWithin(b *Budget, name string, raw []byte) (*Parsed, error) {
	if err := b.Err(); err != nil {
		return nil, err
	}
	isOffice := office.Handles(name)
	var p *Parsed
	var err error
	if isOffice {
		p, err = parseChecked(name, func(name string, raw []byte) (*Parsed, error) {
			return office.ParseWithin(b, name, raw)
		}, raw)
	} else {
		p, err = Parse(name, raw)
	}
	if err != nil {
		return nil, err
	}
	if !isOffice {
		p.Expanded = int64(len(p.Doc.Text))
		if err := b.Expand(name, p.Expanded); err != nil {
			return nil, err
		}
	}
	if err := b.AddPages(name, p.Pages); err != nil {
		return nil, err
	}
	return p, nil
}
