package lexical

// A view that shows few documents, told as runs of consecutive document
// numbers (WithRanges), is scored over those runs alone: each token's
// list is searched forward for each run's first document (a galloping
// search from the previous run's end) and walked inside the run, so a
// query weighs only visible postings and steps over the hidden ones in
// logarithmic jumps. At a million chunks a reader of 1% walked every
// common term's whole list, a bit test a posting, and paid most of an
// unrestricted query's cost for a hundredth of its documents.
//
// The sums are the exhaustive path's: token by token into the
// accumulator, each document's in token order.

// rangeSeekCost is what seeking one run in one list costs, in postings of
// a walk: a galloping search of about log2 of the gap, each step a
// cache miss. The runs are used when seeking every run in every list
// costs less than walking the lists. A variable so that tests can take
// the runs on small corpora.
var rangeSeekCost = 24

// WithRanges makes the view score over runs, ranges[2i] to ranges[2i+1]
// (excluded) for each i, increasing and disjoint: exactly the documents
// the view shows. The slice is kept, not copied.
func (v *View) WithRanges(ranges []uint32) *View {
	v.ranges = ranges
	return v
}

// useRanges reports whether a query of the given distinct lists, holding
// postings in all, is cheaper over the view's runs than walking them.
func (q *ViewQuery) useRanges(lists, postings int) bool {
	r := q.v.ranges
	return r != nil && len(r)/2*lists*rangeSeekCost < postings
}

// topKRanges is topK over the view's runs.
func (q *ViewQuery) topKRanges(k int, allow func(doc int) bool, div float64, s *scratch) []Result {
	m := q.v.m
	ranges := q.v.ranges
	s.dense = false
	for i, id := range q.ids {
		if id < 0 || q.repeat[i] == 0 {
			continue
		}
		docs := m.ix.docs(uint32(id))
		j := 0
		for r := 0; r+1 < len(ranges) && j < len(docs); r += 2 {
			lo, hi := ranges[r], ranges[r+1]
			j = seek(docs, j, lo)
			for ; j < len(docs) && docs[j] < hi; j++ {
				d := docs[j]
				if s.acc[d] == 0 {
					s.touched = append(s.touched, d)
				}
				addRepeated(&s.acc[d], q.weight(i, j, d), q.repeat[i])
			}
		}
	}
	var top topSet
	top.init(k, div)
	for _, d := range s.touched {
		if a := s.acc[d]; a >= top.cut {
			top.offer(int(d), a, allow)
		}
	}
	return top.sorted()
}
