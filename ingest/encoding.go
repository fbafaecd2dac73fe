package ingest

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeText turns the raw bytes of a text format (Markdown, HTML, plain
// text) into UTF-8 with "\n" line ends. It refuses empty and binary input
// (see CheckBytes), decodes UTF-16 with a byte order mark, drops a UTF-8
// byte order mark, and reads bytes that are not valid UTF-8 as Windows-1252,
// the usual encoding of legacy Italian and English files.
func decodeText(name string, raw []byte) (string, error) {
	if u, ok := fromUTF16(raw); ok {
		raw = u
	}
	if err := CheckBytes(name, raw); err != nil {
		return "", err
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	var s string
	if utf8.Valid(raw) {
		s = string(raw)
	} else {
		s = fromMixed(raw)
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s, nil
}

// fromUTF16 decodes raw as UTF-16 when it starts with a byte order mark,
// returning UTF-8 bytes.
func fromUTF16(raw []byte) ([]byte, bool) {
	if len(raw) < 2 {
		return nil, false
	}
	var big bool
	switch {
	case raw[0] == 0xfe && raw[1] == 0xff:
		big = true
	case raw[0] == 0xff && raw[1] == 0xfe:
		big = false
	default:
		return nil, false
	}
	raw = raw[2:]
	units := make([]uint16, len(raw)/2)
	for i := range units {
		if big {
			units[i] = uint16(raw[2*i])<<8 | uint16(raw[2*i+1])
		} else {
			units[i] = uint16(raw[2*i+1])<<8 | uint16(raw[2*i])
		}
	}
	return []byte(string(utf16.Decode(units))), true
}

// cp1252 maps the bytes 0x80–0x9F of Windows-1252; 0 marks the five
// undefined ones. Bytes 0xA0–0xFF are the same code points as Latin-1.
var cp1252 = [32]rune{
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
}

// fromMixed keeps valid UTF-8 sequences and reads every other byte as
// Windows-1252, which also repairs files where a Latin-1 editor appended to
// a UTF-8 file.
func fromMixed(raw []byte) string {
	var sb strings.Builder
	sb.Grow(len(raw) + len(raw)/8)
	for len(raw) > 0 {
		r, size := utf8.DecodeRune(raw)
		if r == utf8.RuneError && size == 1 {
			c := raw[0]
			switch {
			case c >= 0xa0:
				r = rune(c)
			case c >= 0x80 && cp1252[c-0x80] != 0:
				r = cp1252[c-0x80]
			default:
				r = utf8.RuneError
			}
		}
		sb.WriteRune(r)
		raw = raw[size:]
	}
	return sb.String()
}
