package engine

import "github.com/fonte-rag/fonte/ingest"

// chargeParsed charges a folder's new or changed document to the run's
// budget: what its file expanded to and its pages.
func chargeParsed(b *ingest.Budget, p *ingest.Parsed) error {
	if err := b.Expand(p.Doc.ID, p.Expanded); err != nil {
		return err
	}
	return b.AddPages(p.Doc.ID, p.Pages)
}
