package synth

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// The embedder reads most chunks' topics back from their words, gives a
// text the same vector every time, and puts same-topic texts closer than
// other-topic ones.
func TestTopicEmbedderRecoversTopics(t *testing.T) {
	c := NewCorpus(rand.New(rand.NewPCG(3, 4)), CorpusOptions{})
	e := c.Embedder()
	right := 0
	var texts []string
	var topics []int
	for range 400 {
		topic, text, _ := c.Chunk()
		if e.Topic(text) == topic {
			right++
		}
		texts = append(texts, text)
		topics = append(topics, topic)
	}
	if right < 300 {
		t.Fatalf("topic read back for %d of 400 chunks", right)
	}
	a, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Embed(context.Background(), texts[:1])
	if !slices.Equal(a[0], b[0]) {
		t.Fatal("the same text got two vectors")
	}
	if len(a[0]) != e.Dimension() {
		t.Fatalf("dimension %d, want %d", len(a[0]), e.Dimension())
	}
	dot := func(x, y []float32) (s float32) {
		for i := range x {
			s += x[i] * y[i]
		}
		return s
	}
	var same, other float32
	var ns, no int
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if topics[i] == topics[j] {
				same += dot(a[i], a[j])
				ns++
			} else {
				other += dot(a[i], a[j])
				no++
			}
		}
	}
	if ns == 0 || same/float32(ns) <= other/float32(no)+0.05 {
		t.Fatalf("mean similarity same topic %.3f vs other %.3f", same/float32(ns), other/float32(no))
	}
}
