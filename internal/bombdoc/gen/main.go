// Command gen writes the .docx files of the upload attack that the
// per-run limits stop: N table documents of ROWS rows each, small on the
// wire and many chunks once read (scripts/upload-attack runs it).
//
//	go run ./internal/bombdoc/gen DIR N ROWS
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fonte-rag/fonte/internal/bombdoc"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: gen DIR N ROWS")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 1 {
		return fmt.Errorf("number of files %q: want a whole number, 1 or more", args[1])
	}
	rows, err := strconv.Atoi(args[2])
	if err != nil || rows < 1 {
		return fmt.Errorf("number of rows %q: want a whole number, 1 or more", args[2])
	}
	if err := os.MkdirAll(args[0], 0o755); err != nil {
		return err
	}
	for i := range n {
		b := bombdoc.DOCX(rows, i)
		p := filepath.Join(args[0], fmt.Sprintf("spese-%02d.docx", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		fmt.Println(p, len(b))
	}
	return nil
}
