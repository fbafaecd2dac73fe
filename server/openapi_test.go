package server_test

import (
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"

	"github.com/fonte-rag/fonte/server"
)

// TestOpenAPI builds the served document with libopenapi (which resolves
// every $ref) and checks it lists each registered route and method.
func TestOpenAPI(t *testing.T) {
	ts := start(t, config{})
	status, raw, _ := ts.call(t, "GET", "/openapi.json", "", nil)
	if status != 200 || string(raw) != string(server.OpenAPI) {
		t.Fatalf("/openapi.json: %d", status)
	}
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); !strings.HasPrefix(v, "3.1") {
		t.Fatalf("OpenAPI version %s, want 3.1", v)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("the document does not build: %v", err)
	}
	idx := model.Index
	if idx != nil {
		if errs := idx.GetReferenceIndexErrors(); len(errs) > 0 {
			t.Fatalf("reference errors: %v", errs)
		}
	}
	paths := model.Model.Paths.PathItems
	distinct := map[string]bool{} // routes share a path when only their methods differ
	for _, pattern := range ts.srv.Routes() {
		method, path, _ := strings.Cut(pattern, " ")
		path = strings.ReplaceAll(path, "...}", "}") // {id...} is {id} in OpenAPI
		distinct[path] = true
		item, ok := paths.Get(path)
		if !ok {
			t.Errorf("%s is not in openapi.json", path)
			continue
		}
		op, ok := item.GetOperations().Get(strings.ToLower(method))
		if !ok {
			t.Errorf("%s %s is not in openapi.json", method, path)
			continue
		}
		if op.Responses == nil || op.Responses.Codes.Len() == 0 {
			t.Errorf("%s %s has no responses", method, path)
		}
	}
	// No path the server does not serve.
	if got, want := paths.Len(), len(distinct); got != want {
		t.Errorf("openapi.json has %d paths for %d distinct route paths", got, want)
	}
}
