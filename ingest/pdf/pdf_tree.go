package pdf

import (
	"bytes"
	"fmt"
)

// pdfTreeCheck refuses page trees that make PDFium loop: a node listed
// as a kid more than once (nodes each listing the next one twice make
// 2^depth paths through a file of a few KB: PDFium counts pages by
// walking every path) or a node that is its own ancestor. It reads the
// /Kids arrays written in the clear; a tree inside compressed object
// streams is not seen here, and the reader's time limit bounds it.
func pdfTreeCheck(raw []byte) error {
	kids := map[int][]int{} // node object number → kid object numbers
	for at := 0; ; {
		i := bytes.Index(raw[at:], []byte("/Kids"))
		if i < 0 {
			break
		}
		at += i + len("/Kids")
		owner, ok := ownerObject(raw, at)
		if !ok {
			continue
		}
		// A later definition of the same object (an incremental update)
		// replaces the earlier one.
		kids[owner] = refList(raw[at:])
	}
	seen := map[int]int{}
	for owner, ks := range kids {
		for _, k := range ks {
			if seen[k]++; seen[k] > 1 {
				return fmt.Errorf("page tree has more nodes than pages: object %d is listed as a kid more than once (below object %d)", k, owner)
			}
		}
	}
	// A cycle: walk down from every node, remembering the path.
	state := map[int]int{} // 1 on the current path, 2 done
	var walk func(n, depth int) error
	walk = func(n, depth int) error {
		switch {
		case state[n] == 1:
			return fmt.Errorf("page tree has a cycle: object %d is its own ancestor", n)
		case state[n] == 2 || depth > maxTreeDepth:
			return nil
		}
		state[n] = 1
		for _, k := range kids[n] {
			if err := walk(k, depth+1); err != nil {
				return err
			}
		}
		state[n] = 2
		return nil
	}
	for n := range kids {
		if err := walk(n, 0); err != nil {
			return err
		}
	}
	return nil
}

// ownerObject finds the number of the object whose body holds offset at:
// the nearest "N G obj" before it, unless an "endobj" comes first.
func ownerObject(raw []byte, at int) (int, bool) {
	j := bytes.LastIndex(raw[:at], []byte("obj"))
	if j < 0 || (j >= 3 && string(raw[j-3:j]) == "end") {
		return 0, false
	}
	k := j
	skipSpace := func() {
		for k > 0 && isPDFSpace(raw[k-1]) {
			k--
		}
	}
	number := func() (int, bool) {
		end := k
		for k > 0 && raw[k-1] >= '0' && raw[k-1] <= '9' {
			k--
		}
		if k == end || end-k > 9 {
			return 0, false
		}
		n := 0
		for _, c := range raw[k:end] {
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	skipSpace()
	if _, ok := number(); !ok { // generation
		return 0, false
	}
	skipSpace()
	return number()
}

// refList reads "[N G R N G R …]" at the start of b (after white space)
// and returns the object numbers; it stops at anything else.
func refList(b []byte) []int {
	k := 0
	for k < len(b) && isPDFSpace(b[k]) {
		k++
	}
	if k >= len(b) || b[k] != '[' {
		return nil
	}
	k++
	var out, nums []int
	for k < len(b) {
		switch c := b[k]; {
		case isPDFSpace(c):
			k++
		case c >= '0' && c <= '9':
			n := 0
			for k < len(b) && b[k] >= '0' && b[k] <= '9' && n < 1e9 {
				n = n*10 + int(b[k]-'0')
				k++
			}
			nums = append(nums, n)
		case c == 'R' && len(nums) >= 2:
			out = append(out, nums[len(nums)-2])
			nums = nums[:0]
			k++
		default:
			return out
		}
	}
	return out
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}
