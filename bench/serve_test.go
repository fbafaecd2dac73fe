package main

import (
	"testing"
	"time"
)

func TestPercentiles(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	p50, p99 := percentiles(ds)
	if p50 != 50*time.Millisecond || p99 != 99*time.Millisecond {
		t.Errorf("p50 %v p99 %v, want 50ms 99ms", p50, p99)
	}
	if p50, p99 := percentiles(nil); p50 != 0 || p99 != 0 {
		t.Errorf("empty: %v %v", p50, p99)
	}
	if p50, p99 := percentiles([]time.Duration{time.Second}); p50 != time.Second || p99 != time.Second {
		t.Errorf("one: %v %v", p50, p99)
	}
}

func TestReadQuestions(t *testing.T) {
	qs, err := readQuestions("../examples/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 20 {
		t.Errorf("%d questions, want at least 20", len(qs))
	}
}
