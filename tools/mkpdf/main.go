// Command mkpdf generates the PDF document of the example handbook,
// examples/handbook/finance/travel-and-expenses-policy.pdf, from text
// defined in this program.
//
// The PDF is part of the example corpus because PDF is the format where
// extraction goes wrong most often: text is placed line by line, paragraphs
// and headings exist only as font sizes and gaps, and words can be split
// across lines. The layout here is deliberately plain (one column, no
// tables) so that the extracted text is predictable and the gold quotes of
// examples/questions.jsonl can be checked against it.
//
// The output is deterministic: fixed creation and modification dates,
// sorted resource catalogs, no compression (so the bytes do not depend on
// the zlib implementation of the Go release) and a fixed producer string.
// Running it twice gives identical files.
//
// Usage, from the repository root:
//
//	go run ./tools/mkpdf
//	go run ./tools/mkpdf -o /tmp/policy.pdf
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-pdf/fpdf"
)

// kind is the role of a block of text, which selects its font and spacing.
type kind int

const (
	title   kind = iota // document title, first page only
	meta                // the line under the title
	heading             // numbered section heading
	sub                 // numbered subsection heading
	para                // body paragraph
	item                // bullet list item
)

type block struct {
	kind kind
	text string
}

// page is the content of one page; each page opens with its own heading so
// that a retrieved chunk from any page says what it is about.
type page []block

// policy is the Travel and Expenses Policy of the invented company
// Ferrovetro Labs. Plain ASCII apart from characters in Windows-1252,
// which the core fonts can show. Facts here are referred to by
// examples/questions.jsonl: change them together.
var policy = []page{
	{
		{title, "Travel and Expenses Policy"},
		{meta, "Ferrovetro Labs S.r.l. - Policy FIN-03, revision 4. Effective from 1 February 2025. Owner: Chief Financial Officer."},
		{heading, "1. Scope"},
		{para, "This policy applies to all employees who travel for work or spend their own money on behalf of Ferrovetro Labs. Contractors are reimbursed only when their contract says so."},
		{para, "Purchases of goods, services and software are not expenses: they follow the purchasing procedures SOP-014 and SOP-017 and are paid by the company directly."},
		{heading, "2. Before you travel"},
		{para, "Every business trip needs a travel authorisation approved by your manager in the People portal. Request it at least 5 working days before a domestic trip and at least 15 working days before an international trip."},
		{para, "Book trains, flights and hotels through the company travel desk, which pays the suppliers directly. Bookings made privately are reimbursed only if they cost less than the offer of the travel desk."},
		{sub, "2.1 Getting there"},
		{item, "Trains: second class. First class is allowed when the train journey takes more than 3 hours."},
		{item, "Flights: economy class only. Take a flight only when the same journey by train would take more than 5 hours."},
		{item, "Private car: only with the prior approval of your manager, reimbursed at 0.42 euro per kilometre plus motorway tolls."},
		{item, "Taxis: allowed when no public transport is available, after 21:00, or when you carry company equipment."},
	},
	{
		{heading, "3. Spending limits"},
		{para, "The limits below are per person and include taxes. Costs above a limit are reimbursed only with the written approval of the Chief Financial Officer."},
		{sub, "3.1 Domestic trips (Italy)"},
		{item, "Hotel: up to 130 euro per night."},
		{item, "Meals: up to 40 euro per day, with a maximum of 25 euro for a single meal."},
		{sub, "3.2 International trips"},
		{item, "Hotel: up to 180 euro per night, and up to 250 euro per night in London, Paris, Zurich and New York."},
		{item, "Meals: up to 60 euro per day, with a maximum of 35 euro for a single meal."},
		{sub, "3.3 Cash advances"},
		{para, "For international trips you can ask for a cash advance of up to 300 euro. Request it together with the travel authorisation. The advance is deducted from your next expense claim."},
	},
	{
		{heading, "4. Claiming expenses"},
		{para, "Submit your expense claim in the People portal within 30 days of returning from the trip. Attach a photo or a scan of every receipt, and keep the paper receipts for 3 months in case of an audit."},
		{para, "If you lose a receipt, a signed self-declaration is accepted for amounts up to 25 euro. Larger amounts without a receipt are not reimbursed."},
		{para, "Claims approved by the 20th of the month are reimbursed with the salary of that month. Claims approved later are paid with the salary of the following month."},
		{para, "Expenses in a foreign currency are converted at the exchange rate shown on your card statement. For cash payments, the exchange rate of the European Central Bank on the day of the payment is used."},
		{heading, "5. What is not reimbursed"},
		{item, "Alcoholic drinks and minibar items."},
		{item, "Traffic fines and parking fines."},
		{item, "Upgrades to business class or to a better hotel room."},
		{item, "Travel insurance bought privately: every employee is already covered by the company travel insurance."},
		{heading, "6. Contacts"},
		{para, "Travel desk: travel@ferrovetro.example, internal extension 4300. Questions about expense claims go to amministrazione@ferrovetro.example."},
	},
}

// Layout, in millimetres and points. Heading sizes are at least 1.2 times
// the body size, so extractors that infer headings from font size find
// them; gaps between blocks are larger than the line height, so they see
// paragraphs.
const (
	margin     = 20.0
	bodySize   = 10.5
	bodyLine   = 5.5
	blockGap   = 3.0
	itemGap    = 1.5
	bulletIndt = 5.0
)

// fixedDate is the creation and modification date written into the PDF.
var fixedDate = time.Date(2025, time.February, 1, 9, 0, 0, 0, time.UTC)

func main() {
	out := flag.String("o", filepath.Join("examples", "handbook", "finance", "travel-and-expenses-policy.pdf"), "output file")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "mkpdf:", err)
		os.Exit(1)
	}
}

func write(path string) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(false)
	pdf.SetCatalogSort(true)
	pdf.SetCreationDate(fixedDate)
	pdf.SetModificationDate(fixedDate)
	pdf.SetProducer("fonte tools/mkpdf", true)
	pdf.SetCreator("fonte tools/mkpdf", true)
	pdf.SetTitle("Travel and Expenses Policy", true)
	pdf.SetAuthor("Ferrovetro Labs S.r.l.", true)
	pdf.SetSubject("Policy FIN-03, revision 4", true)
	pdf.SetLang("en")
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin)
	pdf.AliasNbPages("{nb}")

	// The core fonts use Windows-1252; the translator maps UTF-8 to it.
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.SetFooterFunc(func() {
		pdf.SetY(-15)
		pdf.SetFont("Helvetica", "", 8)
		pdf.CellFormat(0, 5, tr(fmt.Sprintf("Ferrovetro Labs - FIN-03 rev. 4 - page %d of {nb}", pdf.PageNo())), "", 0, "C", false, 0, "")
	})

	width := 210 - 2*margin
	for _, pg := range policy {
		pdf.AddPage()
		for i, b := range pg {
			if i > 0 {
				gap := blockGap
				if b.kind == item && pg[i-1].kind == item {
					gap = itemGap
				}
				if b.kind == heading {
					gap = 2 * blockGap
				}
				pdf.Ln(gap)
			}
			switch b.kind {
			case title:
				pdf.SetFont("Helvetica", "B", 20)
				pdf.MultiCell(width, 10, tr(b.text), "", "L", false)
			case meta:
				pdf.SetFont("Helvetica", "I", bodySize)
				pdf.MultiCell(width, bodyLine, tr(b.text), "", "L", false)
			case heading:
				pdf.SetFont("Helvetica", "B", 15)
				pdf.MultiCell(width, 8, tr(b.text), "", "L", false)
			case sub:
				pdf.SetFont("Helvetica", "B", 13)
				pdf.MultiCell(width, 7, tr(b.text), "", "L", false)
			case para:
				pdf.SetFont("Helvetica", "", bodySize)
				pdf.MultiCell(width, bodyLine, tr(b.text), "", "L", false)
			case item:
				pdf.SetFont("Helvetica", "", bodySize)
				pdf.SetX(margin + 1)
				pdf.CellFormat(bulletIndt-1, bodyLine, tr("•"), "", 0, "L", false, 0, "")
				pdf.MultiCell(width-bulletIndt, bodyLine, tr(b.text), "", "L", false)
			}
		}
	}
	if n := pdf.PageCount(); n != len(policy) {
		return fmt.Errorf("content overflowed: %d pages written for %d pages of content", n, len(policy))
	}
	if err := pdf.Error(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return pdf.OutputFileAndClose(path)
}
