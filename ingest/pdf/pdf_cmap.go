package pdf

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// A ToUnicode CMap maps a font's character codes to Unicode. It is parsed
// here rather than by the PDF library because the library adds a bfrange
// offset to the last byte only, which breaks ranges wider than 256 codes:
// fpdf's UTF-8 fonts declare one range <0000> <FFFF> <0000>, and every
// character above U+00FF (curly quotes, the euro sign, "ę") came out as a
// control character.

// maxCMapSize bounds the CMap stream read; real ones are a few KiB to a few
// hundred KiB.
const maxCMapSize = 4 << 20

// cmapRange maps codes lo..hi (same length) either to consecutive values
// starting at dst or, when list is set, to list[code-lo].
type cmapRange struct {
	lo, hi uint32
	n      int // code length in bytes
	dst    []byte
	list   [][]byte
}

type toUnicode struct {
	spaces [4][][2][]byte // codespace ranges by code length
	chars  [4]map[uint32]string
	ranges []cmapRange
	wide   bool // default code length 2 when no codespace is declared
}

// readToUnicode parses the ToUnicode stream v; it returns nil when v is not
// a usable CMap.
func readToUnicode(v pdf.Value, wide bool) *toUnicode {
	if v.Kind() != pdf.Stream {
		return nil
	}
	rc := v.Reader()
	data, err := io.ReadAll(io.LimitReader(rc, maxCMapSize))
	rc.Close()
	if err != nil {
		return nil
	}
	m := &toUnicode{wide: wide}
	var ops []cmapToken
	var arr [][]byte
	inArr := false
	lex := cmapLexer{s: data}
	for {
		t, ok := lex.next()
		if !ok {
			break
		}
		switch {
		case t.kind == '[':
			inArr, arr = true, nil
		case t.kind == ']':
			if inArr {
				ops = append(ops, cmapToken{kind: ']', list: arr})
			}
			inArr = false
		case inArr:
			if t.kind == '<' {
				arr = append(arr, t.str)
			}
		case t.kind == 'k':
			m.apply(string(t.str), ops)
			ops = ops[:0]
		default:
			ops = append(ops, t)
		}
	}
	if len(m.ranges) > 0 {
		return m
	}
	for _, c := range m.chars {
		if len(c) > 0 {
			return m
		}
	}
	return nil
}

// apply runs a CMap operator over its operands.
func (m *toUnicode) apply(op string, args []cmapToken) {
	switch op {
	case "endcodespacerange":
		for i := 0; i+1 < len(args); i += 2 {
			lo, hi := args[i].str, args[i+1].str
			if n := len(lo); n >= 1 && n <= 4 && len(hi) == n {
				m.spaces[n-1] = append(m.spaces[n-1], [2][]byte{lo, hi})
			}
		}
	case "endbfchar":
		for i := 0; i+1 < len(args); i += 2 {
			src, dst := args[i].str, args[i+1].str
			if n := len(src); n >= 1 && n <= 4 && (args[i+1].kind == '<' || args[i+1].kind == '(') {
				if m.chars[n-1] == nil {
					m.chars[n-1] = map[uint32]string{}
				}
				m.chars[n-1][codeValue(src)] = utf16BE(dst)
			}
		}
	case "endbfrange":
		for i := 0; i+2 < len(args); i += 3 {
			lo, hi, dst := args[i].str, args[i+1].str, args[i+2]
			n := len(lo)
			if n < 1 || n > 4 || len(hi) != n {
				continue
			}
			r := cmapRange{lo: codeValue(lo), hi: codeValue(hi), n: n}
			if dst.kind == ']' {
				r.list = dst.list
			} else {
				r.dst = dst.str
			}
			m.ranges = append(m.ranges, r)
		}
	}
}

// Decode implements pdf.TextEncoding.
func (m *toUnicode) Decode(raw string) string {
	var sb strings.Builder
	for len(raw) > 0 {
		n := m.codeLen(raw)
		code := codeValue([]byte(raw[:n]))
		raw = raw[n:]
		if s, ok := m.chars[n-1][code]; ok {
			sb.WriteString(s)
			continue
		}
		found := false
		for _, r := range m.ranges {
			if r.n != n || code < r.lo || code > r.hi {
				continue
			}
			off := code - r.lo
			switch {
			case r.list != nil:
				if int(off) < len(r.list) {
					sb.WriteString(utf16BE(r.list[off]))
					found = true
				}
			case len(r.dst) >= 2:
				// Add the offset to the last UTF-16 unit of dst.
				d := append([]byte(nil), r.dst...)
				last := uint32(d[len(d)-2])<<8 | uint32(d[len(d)-1])
				last += off
				d[len(d)-2], d[len(d)-1] = byte(last>>8), byte(last)
				sb.WriteString(utf16BE(d))
				found = true
			case len(r.dst) == 1:
				sb.WriteRune(rune(uint32(r.dst[0]) + off))
				found = true
			}
			break
		}
		if !found {
			// An unmapped code: the quality check counts these.
			sb.WriteRune(utf8.RuneError)
		}
	}
	return sb.String()
}

// codeLen returns the length of the code at the start of raw: the shortest
// codespace range that contains it, else the default length.
func (m *toUnicode) codeLen(raw string) int {
	for n := 1; n <= 4 && n <= len(raw); n++ {
		for _, sp := range m.spaces[n-1] {
			in := true
			for i := 0; i < n; i++ {
				if raw[i] < sp[0][i] || raw[i] > sp[1][i] {
					in = false
					break
				}
			}
			if in {
				return n
			}
		}
	}
	if m.wide && len(raw) >= 2 {
		return 2
	}
	return 1
}

func codeValue(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16BE decodes a big-endian UTF-16 string, as CMap destinations are.
func utf16BE(b []byte) string {
	if len(b) == 1 {
		return string(rune(b[0]))
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return string(utf16.Decode(u))
}

// cmapToken is a lexical token of a CMap: kind '<' (hex string, in str),
// '(' (literal string), 'n' (number or name), 'k' (operator keyword),
// '[' and ']' (an array, its strings in list).
type cmapToken struct {
	kind byte
	str  []byte
	list [][]byte
}

// cmapLexer splits CMap PostScript into the tokens the parser needs.
type cmapLexer struct {
	s []byte
	i int
}

func (l *cmapLexer) next() (cmapToken, bool) {
	s := l.s
	for l.i < len(s) {
		c := s[l.i]
		switch {
		case c == '%':
			for l.i < len(s) && s[l.i] != '\n' && s[l.i] != '\r' {
				l.i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0:
			l.i++
		case c == '<' && l.i+1 < len(s) && s[l.i+1] == '<', c == '>' && l.i+1 < len(s) && s[l.i+1] == '>':
			l.i += 2
			return cmapToken{kind: 'n'}, true
		case c == '<':
			l.i++
			var hex []byte
			for l.i < len(s) && s[l.i] != '>' {
				if isHex(s[l.i]) {
					hex = append(hex, s[l.i])
				}
				l.i++
			}
			l.i++
			if len(hex)%2 == 1 {
				hex = append(hex, '0')
			}
			out := make([]byte, len(hex)/2)
			for k := range out {
				v, _ := strconv.ParseUint(string(hex[2*k:2*k+2]), 16, 8)
				out[k] = byte(v)
			}
			return cmapToken{kind: '<', str: out}, true
		case c == '(':
			return cmapToken{kind: '(', str: l.literal()}, true
		case c == '[' || c == ']':
			l.i++
			return cmapToken{kind: c}, true
		default:
			start := l.i
			if c == '/' || c == '{' || c == '}' || c == '>' || c == ')' {
				l.i++
			}
			for l.i < len(s) && !strings.ContainsRune(" \t\r\n\f\x00()<>[]{}/%", rune(s[l.i])) {
				l.i++
			}
			word := s[start:l.i]
			if len(word) > 0 && (word[0] == '/' || word[0] == '-' || word[0] == '.' || (word[0] >= '0' && word[0] <= '9')) {
				return cmapToken{kind: 'n', str: word}, true
			}
			return cmapToken{kind: 'k', str: word}, true
		}
	}
	return cmapToken{}, false
}

// literal reads a parenthesized string with escapes and nested parens.
func (l *cmapLexer) literal() []byte {
	s := l.s
	l.i++ // (
	depth := 1
	var out []byte
	for l.i < len(s) {
		c := s[l.i]
		l.i++
		switch c {
		case '\\':
			if l.i < len(s) {
				e := s[l.i]
				l.i++
				switch e {
				case 'n':
					out = append(out, '\n')
				case 'r':
					out = append(out, '\r')
				case 't':
					out = append(out, '\t')
				case 'b':
					out = append(out, '\b')
				case 'f':
					out = append(out, '\f')
				default:
					if e >= '0' && e <= '7' {
						v := int(e - '0')
						for k := 0; k < 2 && l.i < len(s) && s[l.i] >= '0' && s[l.i] <= '7'; k++ {
							v = v*8 + int(s[l.i]-'0')
							l.i++
						}
						out = append(out, byte(v))
					} else if e != '\n' && e != '\r' {
						out = append(out, e)
					}
				}
			}
		case '(':
			depth++
			out = append(out, c)
		case ')':
			depth--
			if depth == 0 {
				return out
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
