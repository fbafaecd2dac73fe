package main

import (
	"flag"
	"fmt"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// The memtouch phase (-phase memtouch) measures what this machine charges
// for memory a process touches for the first time: it maps -touch-mib of
// anonymous memory, writes one byte per page, unmaps it, and does it again
// -touch-rounds times. On bare metal a page fault costs a microsecond or
// less; on a virtual machine whose host backs guest memory lazily, or
// takes back what the guest frees (a balloon's free page reporting), each
// first touch can be a fault on the host too, which the guest sees as
// steal time. A write at a million chunks allocates gigabytes, so this is
// a cost the readers share while it runs.
var touchMiB, touchRounds int

func init() {
	flag.IntVar(&touchMiB, "touch-mib", 4096, "internal: MiB the memtouch phase touches per round")
	flag.IntVar(&touchRounds, "touch-rounds", 3, "internal: rounds of the memtouch phase")
}

// touchRound is one round of the memtouch phase.
type touchRound struct {
	MiB      int     `json:"mib"`
	Seconds  float64 `json:"seconds"`
	GiBPerS  float64 `json:"gib_per_s"`
	StealS   float64 `json:"steal_s"`
	WorstMs  float64 `json:"worst_64kib_ms"` // the longest time to touch 64 KiB (16 pages)
	Over10ms int     `json:"steps_over_10ms"`
}

// touchStep is how many bytes each timed step touches.
const touchStep = 64 << 10

// memtouch runs the rounds.
func memtouch(mib, rounds int) ([]touchRound, error) {
	if mib < 1 || rounds < 1 {
		return nil, fmt.Errorf("-touch-mib %d, -touch-rounds %d: want at least 1 each", mib, rounds)
	}
	var out []touchRound
	for range rounds {
		r, err := touchOnce(mib)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func touchOnce(mib int) (touchRound, error) {
	r := touchRound{MiB: mib}
	size := mib << 20
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return r, fmt.Errorf("memtouch: mapping %d MiB: %w", mib, err)
	}
	steal0, err := stealTicks()
	if err != nil {
		unix.Munmap(mem)
		return r, err
	}
	start := time.Now()
	last := start
	for at := 0; at < size; at += touchStep {
		for p := at; p < at+touchStep; p += unix.Getpagesize() {
			mem[p] = 1
		}
		now := time.Now()
		step := now.Sub(last)
		last = now
		r.WorstMs = max(r.WorstMs, float64(step)/1e6)
		if step > 10*time.Millisecond {
			r.Over10ms++
		}
	}
	r.Seconds = time.Since(start).Seconds()
	runtime.KeepAlive(mem)
	steal1, err := stealTicks()
	if err := unix.Munmap(mem); err != nil {
		return r, fmt.Errorf("memtouch: unmapping: %w", err)
	}
	r.GiBPerS = float64(mib) / 1024 / r.Seconds
	r.StealS = float64(steal1-steal0) / clockTicks
	return r, err
}
