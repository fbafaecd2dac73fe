// Package evalsets lists the question sets fonte is measured on, as
// scripts/eval-sets evaluates them, for the Go programs and measurements
// that go over all of them (cmd/fonte-learn, the abstention study).
package evalsets

// Set is one question set: its name, the folder of its documents and its
// questions file, paths relative to the repository's root (the 18F
// handbook's documents are in ../shared).
type Set struct {
	Name, Docs, Questions string
}

// All are the eight question sets of scripts/eval-sets, in its order.
var All = []Set{
	{"example-handbook", "examples/handbook", "examples/questions.jsonl"},
	{"18f-handbook", "../shared/data/handbook", "examples/handbook-18f-questions.jsonl"},
	{"maint-guide-en", "evalsets/maint-guide-en/docs", "evalsets/maint-guide-en/questions.jsonl"},
	{"debian-reference-it", "evalsets/debian-reference-it/docs", "evalsets/debian-reference-it/questions.jsonl"},
	{"gds-way-en", "evalsets/gds-way-en/docs", "evalsets/gds-way-en/questions.jsonl"},
	{"linee-guida-pa-it", "evalsets/linee-guida-pa-it/docs", "evalsets/linee-guida-pa-it/questions.jsonl"},
	{"patrimonio-pubblico-it", "evalsets/patrimonio-pubblico-it/docs", "evalsets/patrimonio-pubblico-it/questions.jsonl"},
	{"mojtg-en", "evalsets/mojtg-en/docs", "evalsets/mojtg-en/questions.jsonl"},
}
