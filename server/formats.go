package server

// Format is one kind of file an upload or an index run reads, as the
// web page's upload area lists it.
type Format struct {
	// Name is the format as a person calls it ("Word").
	Name string `json:"name"`
	// Extensions are the file name endings read as this format, lower
	// case with the dot (".docx").
	Extensions []string `json:"extensions"`
	// OCR formats are read only where the tesseract command is
	// installed.
	OCR bool `json:"ocr,omitempty"`
}

// ReadableFormats are the formats package ingest parses, in the order
// the page shows them. TestReadableFormats holds them to ingest.ParserFor.
var ReadableFormats = []Format{
	{Name: "Markdown", Extensions: []string{".md", ".markdown"}},
	{Name: "text", Extensions: []string{".txt", ".text"}},
	{Name: "reStructuredText", Extensions: []string{".rst", ".rest"}},
	{Name: "HTML", Extensions: []string{".html", ".htm"}},
	{Name: "PDF", Extensions: []string{".pdf"}},
	{Name: "Word", Extensions: []string{".docx"}},
	{Name: "OpenDocument", Extensions: []string{".odt"}},
	{Name: "PowerPoint", Extensions: []string{".pptx"}},
	{Name: "images", Extensions: []string{".png", ".jpg", ".jpeg", ".tif", ".tiff"}, OCR: true},
}
