package disk

import (
	"context"
	"testing"
)

// TestTextHashesDroppedAfterWrite: inside a write the base snapshot finds
// the vector of a stored hex text hash (keyed by its bytes) and of a text
// hash in another form, and once the write returns, failed or committed,
// the base holds no index of them (it outlives the write); a later lookup
// builds it again.
func TestTextHashesDroppedAfterWrite(t *testing.T) {
	s := mustOpen(t, t.TempDir(), testCfg, Options{})
	a, b := makeRecord("a.md", 1, 3, 8), makeRecord("b.md", 1, 2, 8)
	b.TextHashes[1] = "not-a-sha256"
	putAll(t, s, a, b)

	var base *Snapshot
	look := func(t *testing.T) {
		t.Helper()
		for _, c := range []struct {
			hash string
			want []float32
		}{{a.TextHashes[2], a.Vectors[2]}, {b.TextHashes[1], b.Vectors[1]}} {
			if v, ok := base.VectorForText(c.hash); !ok || !sameBits(v, c.want) {
				t.Fatalf("VectorForText(%q) = %v, %v", c.hash, v, ok)
			}
		}
		if _, ok := base.VectorForText(hashHex("never stored")); ok {
			t.Fatal("VectorForText found a hash never stored")
		}
	}
	dropped := func(t *testing.T) {
		t.Helper()
		base.hashMu.Lock()
		defer base.hashMu.Unlock()
		if base.byHash != nil || base.byText != nil {
			t.Fatalf("the base holds %d + %d text hashes after the write", len(base.byHash), len(base.byText))
		}
	}
	err := s.Write(context.Background(), func(tx *Tx) error {
		base = tx.Base()
		look(t)
		return tx.Put(makeRecord("c.md", 1, 2, 8))
	})
	if err != nil {
		t.Fatal(err)
	}
	dropped(t)
	look(t) // built again on use

	failed := context.Canceled
	err = s.Write(context.Background(), func(tx *Tx) error {
		base = tx.Base()
		look(t)
		return failed
	})
	if err != failed {
		t.Fatalf("Write returned %v, want %v", err, failed)
	}
	dropped(t)
}
