package mcp

import (
	"fmt"
	"time"
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
