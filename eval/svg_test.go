package eval

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// checkSVG parses data as XML and checks it is a standalone SVG whose
// coordinates are finite and inside the viewBox, and whose text includes
// every one of texts. It returns the polylines' points by stroke colour.
func checkSVG(t *testing.T, data []byte, texts ...string) map[string][][][2]float64 {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	var text strings.Builder
	var w, h float64
	lines := map[string][][][2]float64{}
	root := true
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.CharData:
			text.Write(tok)
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			if root {
				root = false
				if tok.Name.Local != "svg" || tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("root element %v, want svg in the SVG namespace", tok.Name)
				}
				box := parseFloats(attr["viewBox"])
				if len(box) != 4 || box[0] != 0 || box[1] != 0 || box[2] <= 0 || box[3] <= 0 {
					t.Fatalf("viewBox %q", attr["viewBox"])
				}
				w, h = box[2], box[3]
				continue
			}
			in := func(name string, v string, limit float64) {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > limit {
					t.Errorf("<%s %s=%q> not a finite coordinate within 0..%v", tok.Name.Local, name, v, limit)
				}
			}
			for name, v := range attr {
				switch name {
				case "x", "x1", "x2", "cx", "width":
					in(name, v, w)
				case "y", "y1", "y2", "cy", "height":
					in(name, v, h)
				case "points":
					var pts [][2]float64
					for _, p := range strings.Fields(v) {
						x, y, ok := strings.Cut(p, ",")
						if !ok {
							t.Errorf("point %q", p)
						}
						in("points x", x, w)
						in("points y", y, h)
						fx, _ := strconv.ParseFloat(x, 64)
						fy, _ := strconv.ParseFloat(y, 64)
						pts = append(pts, [2]float64{fx, fy})
					}
					lines[attr["stroke"]] = append(lines[attr["stroke"]], pts)
				}
			}
		}
	}
	if root {
		t.Fatal("no root element")
	}
	for _, s := range texts {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text %q missing", s)
		}
	}
	return lines
}

// parseFloats reads space-separated numbers, nil when one is not.
func parseFloats(s string) []float64 {
	var out []float64
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

func TestFloorSVG(t *testing.T) {
	const title = `Floor trade-off: "seed" <002> & co`
	var b bytes.Buffer
	if err := FloorSVG(&b, *NewAbstain(answerable, unanswerable, 0.2, 0.2), title); err != nil {
		t.Fatal(err)
	}
	lines := checkSVG(t, b.Bytes(), title, "unanswerable let through", "answerable blocked", "floor 0.2", "share of questions", "0.4")
	golden(t, "svg/floor.golden.svg", b.Bytes())

	// Let through starts at 100% (top) and ends at 0% (bottom); blocked
	// the other way round. Segments alternate vertical and horizontal.
	for colour, want := range map[string][2]float64{palette[1]: {plotTop, plotBottom}, palette[0]: {plotBottom, plotTop}} {
		if len(lines[colour]) != 1 {
			t.Fatalf("%s: %d lines", colour, len(lines[colour]))
		}
		pts := lines[colour][0]
		if pts[0][1] != want[0] || pts[len(pts)-1][1] != want[1] || pts[0][0] != plotLeft || pts[len(pts)-1][0] != plotRight {
			t.Errorf("%s runs from %v to %v", colour, pts[0], pts[len(pts)-1])
		}
		for i := 1; i < len(pts); i++ {
			if vertical := i%2 == 1; (pts[i][0] == pts[i-1][0]) != vertical && pts[i] != pts[i-1] {
				t.Errorf("%s: segment %d from %v to %v is not a step", colour, i, pts[i-1], pts[i])
			}
		}
	}

	// No unanswerable questions: only the blocked line is drawn.
	b.Reset()
	if err := FloorSVG(&b, *NewAbstain(answerable, nil, 0.3, 0.2), "no unanswerable"); err != nil {
		t.Fatal(err)
	}
	if lines := checkSVG(t, b.Bytes(), "unanswerable let through (no questions)"); len(lines) != 1 {
		t.Errorf("%d lines drawn, want 1", len(lines))
	}
}

func TestRecallSVG(t *testing.T) {
	series := []Series{
		{"bm25", []float64{0.5, 0.6, 0.7, 0.72, 0.8, 0.81, 0.9, 0.91, 0.95, 0.96}},
		{"hybrid & <rrf>", []float64{0.4, 0.65, 0.75, 0.8, 0.82, 0.85, 0.86, 0.9, 0.93, 0.97}},
		{"short", []float64{0, 1}},
	}
	var b bytes.Buffer
	if err := RecallSVG(&b, "Recall@k, SciFact test", series); err != nil {
		t.Fatal(err)
	}
	lines := checkSVG(t, b.Bytes(), "Recall@k, SciFact test", "bm25", "hybrid & <rrf>", "short", "recall@k", "10")
	golden(t, "svg/recall.golden.svg", b.Bytes())
	if len(lines) != 3 || len(lines[palette[0]][0]) != 10 || len(lines[palette[2]][0]) != 2 {
		t.Errorf("lines %v", lines)
	}

	// One k: a lone point, drawn as a dot on a chart still two k wide.
	b.Reset()
	if err := RecallSVG(&b, "one", []Series{{"only", []float64{0.5}}}); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, b.Bytes(), "only")
	if !bytes.Contains(b.Bytes(), []byte("<circle")) {
		t.Error("a single point is not marked")
	}
}

func TestSVGErrors(t *testing.T) {
	for name, err := range map[string]error{
		"NaN":           RecallSVG(io.Discard, "t", []Series{{"a", []float64{0.5, math.NaN()}}}),
		"above 1":       RecallSVG(io.Discard, "t", []Series{{"a", []float64{1.5}}}),
		"negative":      RecallSVG(io.Discard, "t", []Series{{"a", []float64{-0.1}}}),
		"no values":     RecallSVG(io.Discard, "t", []Series{{"a", nil}}),
		"no series":     RecallSVG(io.Discard, "t", nil),
		"empty curve":   FloorSVG(io.Discard, Abstain{}, "t"),
		"infinite edge": FloorSVG(io.Discard, Abstain{Curve: []CurvePoint{{Floor: math.Inf(1)}}}, "t"),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0, 1, 6, "[0 0.2 0.4 0.6 0.8 1]"},
		{-0.5, 0.45, 6, "[-0.4 -0.2 0 0.2 0.4]"},
		{1, 100, 8, "[20 40 60 80 100]"},
		{0, 0.034, 6, "[0 0.005 0.01 0.015 0.02 0.025 0.03]"},
	} {
		got := niceTicks(tc.lo, tc.hi, tc.n)
		var s []string
		for _, v := range got {
			s = append(s, strconv.FormatFloat(v, 'f', -1, 64))
		}
		if str := "[" + strings.Join(s, " ") + "]"; str != tc.want {
			t.Errorf("niceTicks(%v, %v, %d) = %s, want %s", tc.lo, tc.hi, tc.n, str, tc.want)
		}
	}
}
