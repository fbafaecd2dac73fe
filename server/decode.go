package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
)

// MaxBodyBytes bounds a JSON request body.
const MaxBodyBytes = 1 << 20

// MaxK bounds the number of passages a request may ask for.
const MaxK = 1000

// decode reads one JSON object into v, strictly: unknown fields, field
// names in another case, a key twice in one object, trailing data and
// bodies over MaxBodyBytes are refused with a problem naming the field (or
// "body"); an integer field takes any integral JSON number (1e3 too). A
// body that stops arriving is a 408.
func decode(w http.ResponseWriter, r *http.Request, v any) *Problem {
	return decodeLimit(w, r, v, MaxBodyBytes)
}

// decodeLimit is decode with a body limit of its own, for the routes
// whose bodies carry data sets.
func decodeLimit(w http.ResponseWriter, r *http.Request, v any, limit int64) *Problem {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	body, err := io.ReadAll(r.Body)
	var strict *strictError
	if err == nil {
		body, err = strictBody(body, reflect.TypeOf(v))
	}
	if errors.As(err, &strict) {
		return &strict.p
	}
	var dec *json.Decoder
	if err == nil {
		dec = json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		err = dec.Decode(v)
	}
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	if err == nil {
		return nil
	}
	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var p Problem
	switch {
	case bodyTimedOut(err):
		p = timeoutProblem()
	case errors.As(err, &tooBig):
		p = newProblem(http.StatusRequestEntityTooLarge, "body-too-large", fmt.Sprintf("the body is over %d bytes", tooBig.Limit), "body")
	case errors.As(err, &typeErr) && typeErr.Field == "":
		// The body itself has the wrong type: a number, a string, an array.
		p = newProblem(http.StatusBadRequest, "malformed-json", fmt.Sprintf("the body must be %s, not a JSON %s", jsonType(typeErr.Type.Kind().String()), typeErr.Value), "body")
	case errors.As(err, &typeErr):
		p = newProblem(http.StatusBadRequest, "invalid-field", fmt.Sprintf("%s must be %s", typeErr.Field, jsonType(typeErr.Type.Kind().String())), typeErr.Field)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		p = newProblem(http.StatusBadRequest, "unknown-field", fmt.Sprintf("unknown field %q", name), name)
	case errors.Is(err, io.EOF):
		p = newProblem(http.StatusBadRequest, "malformed-json", "the body is empty; send a JSON object", "body")
	default:
		p = newProblem(http.StatusBadRequest, "malformed-json", "the body is not valid JSON: "+strings.TrimPrefix(err.Error(), "json: "), "body")
	}
	return &p
}

// bodyTimedOut reports a body that stopped arriving: the server's read
// timeout passed before the whole of it came.
func bodyTimedOut(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

func timeoutProblem() Problem {
	return newProblem(http.StatusRequestTimeout, "request-timeout",
		fmt.Sprintf("the body did not arrive within %s; send it whole, at once", ReadTimeout), "body")
}

// jsonType names a Go kind as JSON calls it.
func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "a whole number"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "string":
		return "a string"
	case kind == "bool":
		return "true or false"
	case kind == "slice", kind == "array":
		return "an array"
	}
	return "an object"
}

// checkK validates a requested k; 0 (absent) takes the engine's default.
func checkK(k int, present bool) *Problem {
	if present && (k <= 0 || k > MaxK) {
		p := newProblem(http.StatusBadRequest, "invalid-field", fmt.Sprintf("k must be between 1 and %d", MaxK), "k")
		return &p
	}
	return nil
}

func fieldProblem(field, detail string) *Problem {
	p := newProblem(http.StatusBadRequest, "invalid-field", detail, field)
	return &p
}
