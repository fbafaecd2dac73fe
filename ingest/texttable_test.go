package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// TestRSTTables: csv-table, list-table, grid and simple tables come out as
// a Markdown table does, a row a line under its header, cells joined by
// " | ", a cell over several lines read as one; a title is the caption.
func TestRSTTables(t *testing.T) {
	raw := strings.Join([]string{
		"Ruoli",
		"=====",
		"",
		".. csv-table:: Matrice RACI",
		`   :header: "Processo", "Responsabile, OD", "Team"`,
		"   :widths: 20, 20, 20",
		"",
		`   "Dati nativi", "A/R", "I"`,
		`   "Coinvolgimento", "A, **sempre**", "R ""capo"""`,
		`   "Su due`,
		`   righe", "C", "I"`,
		"",
		".. list-table::",
		"   :header-rows: 1",
		"",
		"   * - Formato",
		"     - Stelle",
		"   * - CSV",
		"     - tre, se il file",
		"       è aperto",
		"",
		"+------------+-----------+",
		"| Numero     | Modalità  |",
		"+============+===========+",
		"| | Pochi    | Editor    |",
		"| | dataset  | web       |",
		"+------------+-----------+",
		"| Molti      | Harvesting|",
		"+------------+-----------+",
		"",
		"======== ==================",
		"Aspetto  Domanda",
		"======== ==================",
		"Privacy  | i dati sono liberi",
		"         | da dati personali?",
		"Licenza  ha una licenza?",
		"======== ==================",
		"",
		"=====  ===========",
		"API    Application",
		"CAD    Codice",
		"=====  ===========",
	}, "\n")
	p := parseString(t, "ruoli.rst", raw)
	want := strings.Join([]string{
		"heading: Ruoli",
		"table: Matrice RACI\nProcesso | Responsabile, OD | Team\nDati nativi | A/R | I\nCoinvolgimento | A, sempre | R \"capo\"\nSu due righe | C | I",
		"table: Formato | Stelle\nCSV | tre, se il file è aperto",
		"table: Numero | Modalità\nPochi dataset | Editor web\nMolti | Harvesting",
		"table: Aspetto | Domanda\nPrivacy | i dati sono liberi da dati personali?\nLicenza | ha una licenza?",
		"paragraph: API Application\nCAD Codice",
	}, "\n|\n")
	if got := kindTexts(p); got != want {
		t.Errorf("blocks:\n%s\nwant:\n%s", got, want)
	}
}

// TestRSTTablesBroken: what is not a well-formed table keeps its text,
// and a ragged csv-table row keeps all its cells.
func TestRSTTablesBroken(t *testing.T) {
	raw := strings.Join([]string{
		"Questa pagina tiene tabelle scritte male, che restano leggibili come sono.",
		"",
		".. csv-table::",
		`   :header: "A", "B"`,
		"",
		`   "uno", "due", "tre"`,
		`   "solo"`,
		`   "aperta, senza fine`,
		"",
		"+-----+-----+",
		"| unita      |",
		"+-----+-----+",
		"",
		"Esempio::",
		"",
		"   +---+---+",
		"   | x | y |",
		"   +===+===+",
		"   | 1 | 2 |",
		"   +---+---+",
		"",
		"=====  =====",
		"senza  chiusura",
	}, "\n")
	p := parseString(t, "rotta.rst", raw)
	want := strings.Join([]string{
		"heading: Questa pagina tiene tabelle scritte male, che restano leggibili come sono.",
		"table: A | B\nuno | due | tre\nsolo\naperta, senza fine",
		"paragraph: +-----+-----+\n| unita |\n+-----+-----+",
		"paragraph: Esempio:",
		"paragraph: +---+---+\n| x | y |\n+===+===+\n| 1 | 2 |\n+---+---+",
		"paragraph: ===== =====\nsenza chiusura",
	}, "\n|\n")
	if got := kindTexts(p); got != want {
		t.Errorf("blocks:\n%s\nwant:\n%s", got, want)
	}
}

// TestTextGridTable: plain text draws grid tables too.
func TestTextGridTable(t *testing.T) {
	raw := strings.Join([]string{
		"Quadro delle soluzioni",
		"",
		"+----------+------------+",
		"| Soluzioni| Obbligo    |",
		"+==========+============+",
		"| Software | **Sì**, se |",
		"| libero   | modificato |",
		"+----------+------------+",
	}, "\n")
	p := parseString(t, "quadro.txt", raw)
	if got := blockTexts(p, KindTable); len(got) != 1 || got[0] != "Soluzioni | Obbligo\nSoftware libero | Sì, se modificato" {
		t.Errorf("tables %q", got)
	}
}

// TestDrawnTableBounded: a table is looked for within maxDrawnLines lines,
// so openers that never close cost a bounded scan each; a simple table
// longer than that stays as drawn, its text whole.
func TestDrawnTableBounded(t *testing.T) {
	table := func(rows int) string {
		var b strings.Builder
		b.WriteString("Una pagina di prova con una tabella molto lunga.\n\n==========  ==========\nNome        Valore\n==========  ==========\n")
		for i := range rows {
			fmt.Fprintf(&b, "riga%-6d  valore%d\n", i, i)
		}
		b.WriteString("==========  ==========\n")
		return b.String()
	}
	for _, c := range []struct {
		rows   int
		tables int
	}{{maxDrawnLines - 10, 1}, {maxDrawnLines, 0}} {
		p := parseString(t, "lunga.txt", table(c.rows))
		if got := len(blockTexts(p, KindTable)); got != c.tables {
			t.Errorf("%d rows: %d tables, want %d", c.rows, got, c.tables)
		}
		if !strings.Contains(p.Doc.Text, fmt.Sprintf("riga%d", c.rows-1)) {
			t.Errorf("%d rows: the last row is lost", c.rows)
		}
	}
}
