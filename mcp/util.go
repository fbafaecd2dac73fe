package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// day formats a date as agents and people read it; "" when unknown.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// where renders a page and an updated date as a suffix of a source line.
func where(page int, updated string) string {
	s := ""
	if page > 0 {
		s += fmt.Sprintf(", page %d", page)
	}
	if updated != "" {
		s += ", updated " + updated
	}
	return s
}

// nonNil keeps empty lists as [] in structured output: the output schema
// says array, and null would not validate.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// schema is the input schema inferred from In with the integer property
// name bounded and defaulted, so a client sees the limits before calling
// and the SDK refuses arguments outside them.
func schema[In any](name string, lo, hi, def int) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(err) // a fixed Go type: fails in every test run or never
	}
	p := s.Properties[name]
	l, h := float64(lo), float64(hi)
	p.Minimum, p.Maximum, p.Default = &l, &h, json.RawMessage(strconv.Itoa(def))
	return s
}
