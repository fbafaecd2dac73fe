package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// encoding/json matches field names in any case, keeps the last of two
// equal keys and refuses 1e3 for an integer. strictScan walks a body's
// tokens beside the type it decodes into, before the decoder runs, so a
// request means exactly what it says: a key twice in one object and a
// key that names a field in another case are refused, and an integral
// number written with a fraction or an exponent (1e3, 10.0) is rewritten
// as the integer an integer field needs.

// strictError is a body the decoder would read, but not as its sender
// meant it.
type strictError struct{ p Problem }

func (e *strictError) Error() string { return e.p.Detail }

// numberFix replaces body[start:end] with text.
type numberFix struct {
	start, end int64
	text       string
}

type strictScanner struct {
	dec   *json.Decoder
	fixes []numberFix
}

// strictBody checks body against t and returns it with its integral
// numbers rewritten. A syntax error is left for the decoder to name.
func strictBody(body []byte, t reflect.Type) ([]byte, error) {
	s := &strictScanner{dec: json.NewDecoder(bytes.NewReader(body))}
	s.dec.UseNumber()
	if err := s.value(t, ""); err != nil {
		if _, ok := err.(*strictError); ok {
			return nil, err
		}
		return body, nil
	}
	if len(s.fixes) == 0 {
		return body, nil
	}
	var out bytes.Buffer
	last := int64(0)
	for _, f := range s.fixes {
		out.Write(body[last:f.start])
		out.WriteString(f.text)
		last = f.end
	}
	out.Write(body[last:])
	return out.Bytes(), nil
}

// value reads one value bound for t (nil: no type known, as inside a
// map of any or a json.RawMessage); path names it for problems.
func (s *strictScanner) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := s.dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return s.object(t, path)
		}
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t != rawMessage {
			elem = t.Elem()
		}
		for i := 0; s.dec.More(); i++ {
			if err := s.value(elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err = s.dec.Token()
		return err
	case json.Number:
		s.integral(t, v)
	}
	return nil
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// object reads the members of an object bound for t, '{' already read.
func (s *strictScanner) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	switch {
	case t == nil || t == rawMessage:
	case t.Kind() == reflect.Struct:
		fields = jsonFields(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	seen := map[string]bool{}
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		name := key
		if path != "" {
			name = path + "." + key
		}
		if seen[key] {
			return &strictError{newProblem(400, "duplicate-field", fmt.Sprintf("%s appears twice in one object; send it once", name), name)}
		}
		seen[key] = true
		ft := elem
		if fields != nil {
			var ok bool
			if ft, ok = fields[key]; !ok {
				for exact := range fields {
					if strings.EqualFold(exact, key) {
						return &strictError{newProblem(400, "unknown-field",
							fmt.Sprintf("unknown field %q: field names are case-sensitive; did you mean %q?", name, exact), name)}
					}
				}
				// A type that reads itself may take keys its fields do
				// not name: the decoder decides for it.
				if !reflect.PointerTo(t).Implements(jsonUnmarshaler) {
					return &strictError{unknownField(key, name, fields, path == "")}
				}
			}
		}
		if err := s.value(ft, name); err != nil {
			return err
		}
	}
	_, err := s.dec.Token()
	return err
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// unknownField is the problem of a key no field of its object has
// (path: where it is): it lists the fields the object takes, so a caller
// need not look them up, and points a top-level "messages", the OpenAI
// habit, to the route that speaks it. field stays the key alone, as
// before.
func unknownField(key, path string, fields map[string]reflect.Type, top bool) Problem {
	names := slices.Sorted(maps.Keys(fields))
	detail := fmt.Sprintf("unknown field %q; the fields here are %s", path, strings.Join(names, ", "))
	if top && key == "messages" {
		detail += "; OpenAI-style messages go to POST /v1/chat/completions"
	}
	return newProblem(400, "unknown-field", detail, key)
}

// integral records the rewrite of n when t is an integer and n an
// integral number the decoder would refuse (1e3, 10.0). Others are left
// as they are: the decoder's error names a fraction such as 1.5.
func (s *strictScanner) integral(t reflect.Type, n json.Number) {
	if t == nil {
		return
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	default:
		return
	}
	if _, err := n.Int64(); err == nil {
		return
	}
	f, err := n.Float64()
	// Up to 2^53 a float64 holds every integer exactly.
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return
	}
	end := s.dec.InputOffset()
	s.fixes = append(s.fixes, numberFix{start: end - int64(len(n)), end: end, text: strconv.FormatInt(int64(f), 10)})
}

// jsonFields are the JSON names of t's fields, as encoding/json reads
// them (embedded structs' fields promoted), and each field's type.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, t := range jsonFields(ft) {
					if _, ok := out[n]; !ok {
						out[n] = t
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = ft
	}
	return out
}
