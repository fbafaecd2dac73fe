package engine_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/fonte-rag/fonte/engine"
)

// A Go program embeds fonte by opening an index (a folder here),
// indexing a folder of documents into it and asking: the answer comes
// with the citations it quotes, or abstains (Abstained) when the
// documents do not answer.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "fonte-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	e, err := engine.Open(ctx, engine.Settings{Store: dir}, engine.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, "../examples/handbook", nil); err != nil {
		log.Fatal(err)
	}

	a, err := e.Ask(ctx, "How much can I spend per night on a hotel in London?", engine.AskOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Text)
	for _, c := range a.Citations[:1] {
		fmt.Printf("[%d] %s, %s page %d\n", c.N, c.Title, c.DocID, c.Page)
	}

	a, err = e.Ask(ctx, "Who won the 1998 football world cup?", engine.AskOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Abstained)
	// Output:
	// 250 euro — • Hotel: up to 180 euro per night, and up to 250 euro per night in London, Paris, Zurich and New York. [1]
	// [1] Travel and Expenses Policy, finance/travel-and-expenses-policy.pdf page 2
	// true
}
