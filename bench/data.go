package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// The dense data set of issue 4: vectors from a Gaussian mixture of 200
// centres drawn N(0, 1)·0.5, each vector a uniformly chosen centre plus
// N(0, 1) noise in every coordinate, L2-normalised; queries drawn from
// the same mixture after the base vectors; the exact top 10 of every
// query by a float64 brute-force scan (no index of any engine involved).
// It is written once to a file that every engine reads, so all see the
// same bytes. The layout is the one bench/hnswpeer/peer.cpp reads
// (little-endian): the magic "FHNSWPR1"; n, queries, dim, k as uint32;
// n·dim float32 vectors; queries·dim float32 queries; queries·k uint32
// row numbers of the exact top k, best first.
const (
	denseDim     = 384
	denseCentres = 200
	denseScale   = 0.5
	denseK       = 10
	denseMagic   = "FHNSWPR1"
	denseVersion = 1 // bump when the generator changes, so cached files are not reused
)

type denseSet struct {
	n, nq, dim, k int
	base, queries []float32
	truth         []uint32 // nq·k row numbers
}

func (s *denseSet) row(i int) []float32   { return s.base[i*s.dim : (i+1)*s.dim] }
func (s *denseSet) query(i int) []float32 { return s.queries[i*s.dim : (i+1)*s.dim] }
func (s *denseSet) want(i int) []uint32   { return s.truth[i*s.k : (i+1)*s.k] }

// recall is the share of the exact top k of the first nq queries found
// in got (one list of ids per query, any order).
func (s *denseSet) recall(nq int, got func(q int) []uint64) float64 {
	found := 0
	for q := range nq {
		want := s.want(q)
		for _, id := range got(q) {
			if slices.Contains(want, uint32(id)) {
				found++
			}
		}
	}
	return float64(found) / float64(nq*s.k)
}

// denseFile names the cached data file of n vectors in dir.
func denseFile(dir string, n, nq int, seed uint64) string {
	return fmt.Sprintf("%s/dense-v%d-n%d-q%d-seed%d.bin", dir, denseVersion, n, nq, seed)
}

// generateDense draws the data set and computes its ground truth.
func generateDense(n, nq int, seed uint64) *denseSet {
	rng := rand.New(rand.NewPCG(seed, 384))
	dim := denseDim
	centres := make([]float64, denseCentres*dim)
	for i := range centres {
		centres[i] = rng.NormFloat64() * denseScale
	}
	x := make([]float64, dim)
	sample := func(dst []float32) {
		for r := 0; r < len(dst); r += dim {
			c := centres[rng.IntN(denseCentres)*dim:][:dim]
			v := dst[r : r+dim]
			var norm float64
			for j := range x {
				x[j] = c[j] + rng.NormFloat64()
				norm += x[j] * x[j]
			}
			norm = math.Sqrt(norm)
			for j := range v {
				v[j] = float32(x[j] / norm)
			}
		}
	}
	s := &denseSet{n: n, nq: nq, dim: dim, k: denseK,
		base: make([]float32, n*dim), queries: make([]float32, nq*dim)}
	sample(s.base)
	sample(s.queries)
	s.truth = exactTopK(s)
	return s
}

// exactTopK is the brute-force top k of every query, with float64 sums,
// ties by ascending row number, on all cores.
func exactTopK(s *denseSet) []uint32 {
	truth := make([]uint32, s.nq*s.k)
	type hit struct {
		score float64
		row   int
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			top := make([]hit, 0, s.k+1) // best first
			for q := range next {
				qv := s.query(q)
				top = top[:0]
				for r := range s.n {
					h := hit{dot64(qv, s.row(r)), r}
					// rows come in ascending order, so a tie never displaces
					if len(top) == s.k && h.score <= top[s.k-1].score {
						continue
					}
					i := len(top)
					for i > 0 && h.score > top[i-1].score {
						i--
					}
					top = slices.Insert(top, i, h)
					top = top[:min(len(top), s.k)]
				}
				for j, h := range top {
					truth[q*s.k+j] = uint32(h.row)
				}
			}
		})
	}
	for q := range s.nq {
		next <- q
	}
	close(next)
	wg.Wait()
	return truth
}

func dot64(a, b []float32) float64 {
	var s0, s1, s2, s3 float64
	b = b[:len(a)]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i]) * float64(b[i])
		s1 += float64(a[i+1]) * float64(b[i+1])
		s2 += float64(a[i+2]) * float64(b[i+2])
		s3 += float64(a[i+3]) * float64(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float64(a[i]) * float64(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func writeDense(path string, s *denseSet) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(denseMagic)
	for _, x := range []int{s.n, s.nq, s.dim, s.k} {
		binary.Write(w, binary.LittleEndian, uint32(x))
	}
	binary.Write(w, binary.LittleEndian, s.base)
	binary.Write(w, binary.LittleEndian, s.queries)
	binary.Write(w, binary.LittleEndian, s.truth)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// readDense reads a data file written by writeDense.
func readDense(path string) (*denseSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var magic [8]byte
	var hdr [4]uint32
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(magic[:]) != denseMagic {
		return nil, fmt.Errorf("%s: not a dense data file", path)
	}
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &denseSet{n: int(hdr[0]), nq: int(hdr[1]), dim: int(hdr[2]), k: int(hdr[3])}
	s.base = make([]float32, s.n*s.dim)
	s.queries = make([]float32, s.nq*s.dim)
	s.truth = make([]uint32, s.nq*s.k)
	for _, part := range [][]byte{bytesOf(s.base), bytesOf(s.queries), bytesOf(s.truth)} {
		if _, err := io.ReadFull(r, part); err != nil {
			return nil, fmt.Errorf("%s: truncated: %w", path, err)
		}
	}
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: trailing bytes", path)
	}
	if !littleEndian() {
		swap32(bytesOf(s.base))
		swap32(bytesOf(s.queries))
		swap32(bytesOf(s.truth))
	}
	return s, nil
}

// bytesOf views a slice of 4-byte values as bytes, to read it in one go.
func bytesOf[T float32 | uint32](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

func swap32(b []byte) {
	for i := 0; i+4 <= len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
}

// ensureDense returns the path of the data file of n vectors in dir,
// generating it unless a complete one is already there.
func ensureDense(dir string, n, nq int, seed uint64, logf func(string, ...any)) (string, error) {
	path := denseFile(dir, n, nq, seed)
	if fi, err := os.Stat(path); err == nil && fi.Size() == int64(8+16+4*(n*denseDim+nq*denseDim+nq*denseK)) {
		logf("dense data: reusing %s", path)
		return path, nil
	}
	start := time.Now()
	s := generateDense(n, nq, seed)
	if err := writeDense(path, s); err != nil {
		return "", err
	}
	logf("dense data: %d × %d vectors, %d queries, exact top %d by float64 scan, written to %s in %.1f s",
		n, denseDim, nq, denseK, path, time.Since(start).Seconds())
	return path, nil
}
