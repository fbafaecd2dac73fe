package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/fonte-rag/fonte/engine"
	"github.com/fonte-rag/fonte/server"
)

// section decodes the structured section key of the config file into v,
// strictly: a misspelt field is an error naming the file and section.
// It reports whether the section is present.
func (o *options) section(key string, v any) (bool, error) {
	raw, ok := o.file[key]
	if !ok || raw == nil {
		return false, nil
	}
	b, err := yaml.Marshal(raw)
	if err != nil {
		return false, usageError{fmt.Errorf("config file %s: %s: %w", o.filePath, key, err)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return false, usageError{fmt.Errorf("config file %s: %s: %w", o.filePath, key, err)}
	}
	return true, nil
}

// accessRules is the `access:` section: folder prefix → access labels
// given to every document under it.
func (o *options) accessRules() (map[string][]string, error) {
	var rules map[string][]string
	if _, err := o.section("access", &rules); err != nil {
		return nil, err
	}
	if _, err := engine.NormalizeAccess(rules); err != nil {
		return nil, usageError{fmt.Errorf("config file %s: access: %w", o.filePath, err)}
	}
	return rules, nil
}

// languageFloors are the floors per language: --floor-by-language, else
// the file's `floors:` section ({it: 0.2, en: 0.3}).
func (o *options) languageFloors() (map[string]float64, error) {
	out := map[string]float64{}
	if len(o.floors) > 0 {
		for lang, v := range o.floors {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f > 1 {
				return nil, usageError{fmt.Errorf("%s %s=%s: want a relevance floor between 0 and 1", o.named("floor-by-language"), lang, v)}
			}
			out[strings.ToLower(strings.TrimSpace(lang))] = f
		}
		return out, nil
	}
	if _, err := o.section("floors", &out); err != nil {
		return nil, err
	}
	for lang, f := range out {
		if f > 1 {
			return nil, usageError{fmt.Errorf("config file %s: floors: %s: %g is above 1", o.filePath, lang, f)}
		}
	}
	return out, nil
}

// serveSections are the config file's sections only `fonte serve` reads.
type serveSections struct {
	tokens      []server.TokenDigest
	collections map[string]server.CollectionConfig
	hosts       []string
	corsOrigins []string
}

func (o *options) serveSections() (serveSections, error) {
	var s serveSections
	if _, err := o.section("tokens", &s.tokens); err != nil {
		return s, err
	}
	if _, err := o.section("collections", &s.collections); err != nil {
		return s, err
	}
	for name, c := range s.collections {
		if _, err := engine.NormalizeAccess(c.Access); err != nil {
			return s, usageError{fmt.Errorf("config file %s: collections: %s: access: %w", o.filePath, name, err)}
		}
	}
	if _, err := o.section("hosts", &s.hosts); err != nil {
		return s, err
	}
	if _, err := o.section("cors-origins", &s.corsOrigins); err != nil {
		return s, err
	}
	return s, nil
}
