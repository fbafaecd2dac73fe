package eval

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Series is one named line of a chart: Values[i] is the value at k = i+1.
type Series struct {
	Name   string
	Values []float64
}

// Chart geometry, in SVG user units. The legend sits in a column right of
// the plot so it never hides a line, whatever shape the lines take.
const (
	svgWidth, svgHeight = 760, 420
	plotLeft, plotRight = 64, 520
	plotTop, plotBottom = 48, 360
	legendX             = 540
)

// Series colours: distinguishable, and readable in grey print by lightness.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// FloorSVG draws the floor trade-off of a as a standalone SVG: x is the
// floor, y the share of questions, with one step line for unanswerable
// questions let through and one for answerable questions blocked, and a
// vertical marker at the floor in use.
func FloorSVG(w io.Writer, a Abstain, title string) error {
	if len(a.Curve) == 0 {
		return errors.New("eval: floor chart: empty curve")
	}
	lo, hi := a.Curve[0].Floor, a.Curve[0].Floor
	for _, p := range a.Curve {
		if !finite(p.Floor) {
			return fmt.Errorf("eval: floor chart: floor %v is not finite", p.Floor)
		}
		lo, hi = math.Min(lo, p.Floor), math.Max(hi, p.Floor)
	}
	if finite(a.Floor) {
		lo, hi = math.Min(lo, a.Floor), math.Max(hi, a.Floor)
	}
	if hi == lo {
		hi = lo + 1
	}
	ans, unans := a.Totals()
	c := newChart(title, lo, hi)
	c.xAxis(niceTicks(lo, hi, 6), formatFloor, "floor (top-1 score)")
	c.yAxis("share of questions")
	series := []struct {
		name  string
		total int
		count func(CurvePoint) int
	}{
		{"unanswerable let through", unans, func(p CurvePoint) int { return p.LetThrough }},
		{"answerable blocked", ans, func(p CurvePoint) int { return p.Blocked }},
	}
	for i, s := range series {
		colour := palette[(i+1)%2] // red for let through, blue for blocked
		if s.total > 0 {
			// A step line. A score equal to the floor passes, so counts
			// change just above a score: each point's value holds from the
			// previous floor (exclusive) up to its own.
			var pts []point
			for j, p := range a.Curve {
				y := c.y(float64(s.count(p)) / float64(s.total))
				if j > 0 {
					pts = append(pts, point{pts[len(pts)-1].x, y})
				}
				pts = append(pts, point{c.x(p.Floor), y})
			}
			c.polyline(pts, colour)
		}
		name := s.name
		if s.total == 0 {
			name += " (no questions)"
		}
		c.legend(i, name, colour)
	}
	if finite(a.Floor) {
		x := c.x(a.Floor)
		c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#555" stroke-dasharray="4 3"/>`+"\n",
			num(x), num(plotTop), num(x), num(plotBottom))
		c.printf(`<text x="%s" y="%s" font-size="11" text-anchor="middle" fill="#555">%s</text>`+"\n",
			num(x), num(plotTop-4), esc("floor "+formatFloor(a.Floor)))
	}
	return c.finish(w)
}

// RecallSVG draws recall@k for k = 1..K as a standalone SVG, one line per
// series, where K is the longest series. Values must lie in [0, 1].
func RecallSVG(w io.Writer, title string, series []Series) error {
	k := 0
	for _, s := range series {
		for i, v := range s.Values {
			if !finite(v) || v < 0 || v > 1 {
				return fmt.Errorf("eval: recall chart: %s at k=%d is %v, not in [0, 1]", s.Name, i+1, v)
			}
		}
		k = max(k, len(s.Values))
	}
	if k == 0 {
		return errors.New("eval: recall chart: no values")
	}
	hi := float64(max(k, 2)) // one k still needs a width
	c := newChart(title, 1, hi)
	ticks := []float64{1} // k starts at 1, which round ticks would skip
	for _, t := range niceTicks(1, hi, 8) {
		if t == math.Trunc(t) && t > 1 {
			ticks = append(ticks, t)
		}
	}
	c.xAxis(ticks, func(v float64) string { return strconv.Itoa(int(v)) }, "k (hits retrieved)")
	c.yAxis("recall@k")
	for i, s := range series {
		colour := palette[i%len(palette)]
		var pts []point
		for j, v := range s.Values {
			pts = append(pts, point{c.x(float64(j + 1)), c.y(v)})
		}
		c.polyline(pts, colour)
		if len(pts) == 1 { // a lone point draws no line; mark it
			c.printf(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", num(pts[0].x), num(pts[0].y), colour)
		}
		c.legend(i, s.Name, colour)
	}
	return c.finish(w)
}

type point struct{ x, y float64 }

// chart accumulates one SVG document.
type chart struct {
	buf    bytes.Buffer
	lo, hi float64 // x range in data units; y is always 0..1
}

func newChart(title string, lo, hi float64) *chart {
	c := &chart{lo: lo, hi: hi}
	c.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	c.printf(`<title>%s</title>`+"\n", esc(title))
	c.printf(`<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>`+"\n", svgWidth, svgHeight)
	c.printf(`<text x="%s" y="24" font-size="15" text-anchor="middle">%s</text>`+"\n", num((plotLeft+plotRight)/2), esc(title))
	return c
}

func (c *chart) printf(format string, args ...any) { fmt.Fprintf(&c.buf, format, args...) }

// x maps a data value to a horizontal position inside the plot.
func (c *chart) x(v float64) float64 {
	return plotLeft + (v-c.lo)/(c.hi-c.lo)*(plotRight-plotLeft)
}

// y maps a share in [0, 1] to a vertical position, 1 at the top.
func (c *chart) y(v float64) float64 {
	return plotBottom - v*(plotBottom-plotTop)
}

func (c *chart) xAxis(ticks []float64, label func(float64) string, name string) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000"/>`+"\n", num(plotLeft), num(plotBottom), num(plotRight), num(plotBottom))
	for _, t := range ticks {
		x := c.x(t)
		c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000"/>`+"\n", num(x), num(plotBottom), num(x), num(plotBottom+5))
		c.printf(`<text x="%s" y="%s" font-size="11" text-anchor="middle">%s</text>`+"\n", num(x), num(plotBottom+18), esc(label(t)))
	}
	c.printf(`<text x="%s" y="%s" font-size="12" text-anchor="middle">%s</text>`+"\n", num((plotLeft+plotRight)/2), num(plotBottom+40), esc(name))
}

// yAxis draws the share axis, 0 to 100% with light grid lines.
func (c *chart) yAxis(name string) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000"/>`+"\n", num(plotLeft), num(plotTop), num(plotLeft), num(plotBottom))
	for i := 0; i <= 4; i++ {
		v := float64(i) / 4
		y := c.y(v)
		if i > 0 {
			c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", num(plotLeft), num(y), num(plotRight), num(y))
		}
		c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000"/>`+"\n", num(plotLeft-5), num(y), num(plotLeft), num(y))
		c.printf(`<text x="%s" y="%s" font-size="11" text-anchor="end">%d%%</text>`+"\n", num(plotLeft-8), num(y+4), i*25)
	}
	mid := (plotTop + plotBottom) / 2.0
	c.printf(`<text x="16" y="%s" font-size="12" text-anchor="middle" transform="rotate(-90 16 %s)">%s</text>`+"\n", num(mid), num(mid), esc(name))
}

func (c *chart) polyline(pts []point, colour string) {
	if len(pts) == 0 {
		return
	}
	c.printf(`<polyline fill="none" stroke="%s" stroke-width="2" points="`, colour)
	for i, p := range pts {
		if i > 0 {
			c.buf.WriteByte(' ')
		}
		c.printf("%s,%s", num(p.x), num(p.y))
	}
	c.printf(`"/>` + "\n")
}

// legend draws entry i of the legend column: a swatch and the name.
func (c *chart) legend(i int, name, colour string) {
	y := float64(plotTop + 10 + 20*i)
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`+"\n", num(legendX), num(y), num(legendX+20), num(y), colour)
	c.printf(`<text x="%s" y="%s" font-size="12">%s</text>`+"\n", num(legendX+26), num(y+4), esc(name))
}

func (c *chart) finish(w io.Writer) error {
	c.printf("</svg>\n")
	_, err := w.Write(c.buf.Bytes())
	return err
}

// niceTicks returns round values (1, 2 or 5 times a power of ten apart)
// within [lo, hi], about n of them.
func niceTicks(lo, hi float64, n int) []float64 {
	m, e := niceAbove((hi - lo) / float64(n+1))
	step := scaled(float64(m), e)
	var out []float64
	for i := math.Ceil(lo/step - 1e-9); ; i++ {
		// Built from integers, like DisplayFloors, so labels stay round.
		v := scaled(i*float64(m), e) + 0 // + 0 turns -0 into 0
		if v > hi+step*1e-9 {
			break
		}
		out = append(out, v)
	}
	return out
}

func finite(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }

// num prints a coordinate with one decimal, enough at this scale, and keeps
// the output byte-stable for golden files.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// esc escapes text for element content and attribute values.
func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // writing to a bytes.Buffer cannot fail
	return b.String()
}
