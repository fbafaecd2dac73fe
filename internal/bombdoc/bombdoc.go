// Package bombdoc builds the small office documents that expand to a lot
// of indexing work: a Word file a few tens of kilobytes long whose table
// becomes thousands of chunks (one per row), the upload attack of issue
// 21. Tests of the per-run limits use it; it is not part of fonte.
package bombdoc

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
)

// DOCX returns a valid .docx whose body is one table of rows data rows
// under a header row. Every row is a chunk of its own, yet the rows
// repeat, so they compress well: 15,000 rows make a file of about 40 KB.
// seed varies the text from one file to the next.
func DOCX(rows, seed int) []byte {
	var body strings.Builder
	body.WriteString(`<w:tbl>`)
	body.WriteString(row("Voce", "Importo"))
	for i := range rows {
		body.WriteString(row(fmt.Sprintf("voce %d", seed), fmt.Sprintf("%d euro", i%1000)))
	}
	body.WriteString(`</w:tbl>`)
	return pack(
		"[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+
			`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+
			`<w:p><w:r><w:t>Tabella delle voci di spesa rimborsabili.</w:t></w:r></w:p>`+body.String()+`</w:body></w:document>`)
}

func row(cells ...string) string {
	var b strings.Builder
	b.WriteString(`<w:tr>`)
	for _, c := range cells {
		b.WriteString(`<w:tc><w:p><w:r><w:t>` + c + `</w:t></w:r></w:p></w:tc>`)
	}
	b.WriteString(`</w:tr>`)
	return b.String()
}

// pack zips name/content pairs with deflate, as Word does.
func pack(files ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		if err == nil {
			_, err = w.Write([]byte(files[i+1]))
		}
		if err != nil {
			panic(err) // writing to memory does not fail
		}
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}
