package server

// GET and POST /queries/{name}: a saved query run over HTTP, its variables
// from the URL or the body, answered as JSON or as a table (csv.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph"
)

// runSaved serves GET and POST /queries/{name}: runs a saved query with
// variables from the query string (GET: ?name=value, repeated for a list,
// JSON for an input object) or from a JSON object body (POST), merged over
// its defaults, and answers JSON (the GraphQL response) or, with
// format=csv or tsv, a table by the rule in csv.go (rows= chooses the
// rows, bom=1 starts it with a byte-order mark). version=N runs an older
// version.
func (s *Server) runSaved(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		format = "json"
	}
	fail := func(err error) { writeCodedError(w, r.Context(), err) }
	if format != "json" && format != "csv" && format != "tsv" {
		fail(casegraph.Errorf(casegraph.CodeBadUserInput, "format must be json, csv or tsv, not %q", format))
		return
	}
	table := tableFormat{tsv: format == "tsv"}
	switch bom := q.Get("bom"); bom {
	case "", "0", "false":
	case "1", "true":
		table.bom = true
	default:
		fail(casegraph.Errorf(casegraph.CodeBadUserInput, "bom must be 1 or 0, not %q", bom))
		return
	}
	if rows := q.Get("rows"); rows != "" {
		table.rows = strings.Split(rows, ".")
	}
	if err := casegraph.ValidateSlug("name", name); err != nil {
		fail(err)
		return
	}
	var version int64
	if v := q.Get("version"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			fail(casegraph.Errorf(casegraph.CodeBadUserInput, "version must be a whole number from 1"))
			return
		}
		version = n
	}
	// A POST's variables are checked before the saved query is read: a
	// refused body costs no round trip.
	var vars json.RawMessage
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(io.LimitReader(r.Body, s.cfg.MaxBodyBytes+1))
		if err != nil || int64(len(body)) > s.cfg.MaxBodyBytes {
			fail(casegraph.Errorf(casegraph.CodeBadUserInput, "the body must be a JSON object of variables, at most %d bytes", s.cfg.MaxBodyBytes))
			return
		}
		if refuseBadText(w, "the body", body) {
			return
		}
		if len(bytes.TrimSpace(body)) > 0 {
			vars = body
		}
	}
	saved, err := s.store.SavedQuery(r.Context(), name, version)
	if err != nil {
		fail(err)
		return
	}
	doc, gqlErr := gqlparser.LoadQueryWithRules(s.runner.schema.Schema(), saved.Document, validationRules())
	if gqlErr == nil && len(doc.Operations) != 1 {
		gqlErr = gqlerror.List{gqlerror.Errorf("%d operations, want 1", len(doc.Operations))}
	}
	if gqlErr != nil {
		fail(&casegraph.Error{Code: casegraph.CodeInternal, Message: "internal error",
			Cause: fmt.Errorf("saved query %s@%d no longer validates: %w", name, saved.Version, gqlErr)})
		return
	}
	op := doc.Operations[0]

	if r.Method != http.MethodPost {
		if vars, err = urlVariables(s.runner.schema.Schema(), op, q); err != nil {
			fail(err)
			return
		}
	}
	merged, err := graph.MergeVariables(saved.Document, saved.DefaultVariables, vars)
	if err != nil {
		fail(err)
		return
	}
	res := s.runner.Run(r.Context(), saved.Document, merged)
	countErrors(r.Context(), res.Errors)

	filename := fmt.Sprintf("%s-v%d", saved.Name, saved.Version)
	// A run with errors and no data failed: its status says how, so that
	// curl -f and scripts can tell. Partial data is a 200.
	// A table's columns come from the query alone, so a missing thing
	// (NOT_FOUND) is an empty table, as no path is.
	status := http.StatusOK
	if len(res.Errors) > 0 && (len(res.Data) == 0 || string(res.Data) == "null" || format != "json" && !hasData(res.Data)) &&
		(format == "json" || !onlyNotFound(res.Errors)) {
		code, _ := res.Errors[0].Extensions["code"].(string)
		status = statusOf(code)
	}
	if format == "json" || status != http.StatusOK {
		w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s.json"`, filename))
		writeJSON(w, status, res)
		return
	}
	var buf bytes.Buffer
	data := res.Data
	if len(data) == 0 || string(data) == "null" {
		data = json.RawMessage(`{}`)
	}
	if err := writeTable(&buf, op, data, table); err != nil {
		fail(err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	if table.tsv {
		w.Header().Set("Content-Type", "text/tab-separated-values; charset=utf-8")
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.%s"`, filename, format))
	if len(res.Errors) > 0 {
		// Partial data: the rows are there, and the header says so.
		w.Header().Set("X-Casegraph-Errors", strconv.Itoa(len(res.Errors)))
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// onlyNotFound says whether every error is a NOT_FOUND.
func onlyNotFound(errs gqlerror.List) bool {
	for _, e := range errs {
		if code, _ := e.Extensions["code"].(string); code != string(casegraph.CodeNotFound) {
			return false
		}
	}
	return true
}

// hasData reports whether a result's data holds anything but nulls at its
// top level.
func hasData(data json.RawMessage) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	for _, v := range top {
		if string(v) != "null" {
			return true
		}
	}
	return false
}

// reservedParams are the endpoint's own parameters, never variables (a
// saved query's variable of one of these names is given in a POST body).
var reservedParams = map[string]bool{"format": true, "version": true, "rows": true, "bom": true}

// urlVariables reads variables from a query string, coerced to the types
// the operation declares: Int, Float and Boolean parsed, a list from the
// parameter repeated, an input object or JSON value as JSON. format and
// version are the endpoint's own; any other parameter must be a declared
// variable.
func urlVariables(schema *ast.Schema, op *ast.OperationDefinition, q url.Values) (json.RawMessage, error) {
	vars := map[string]any{}
	for key, values := range q {
		if reservedParams[key] {
			continue
		}
		def := op.VariableDefinitions.ForName(key)
		if def == nil {
			return nil, graph.UndeclaredVariable(key)
		}
		v, err := coerceParam(schema, def.Type, values)
		if err != nil {
			return nil, casegraph.InField(key, err)
		}
		vars[key] = v
	}
	return json.Marshal(vars)
}

func coerceParam(schema *ast.Schema, t *ast.Type, values []string) (any, error) {
	if t.Elem != nil {
		out := make([]any, 0, len(values))
		for _, v := range values {
			x, err := coerceParam(schema, t.Elem, []string{v})
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	if len(values) != 1 {
		return nil, casegraph.Errorf(casegraph.CodeBadUserInput, "given %d times; it is not a list", len(values))
	}
	v := values[0]
	want := func(what string) error {
		return casegraph.Errorf(casegraph.CodeBadUserInput, "%q is not %s", truncateParam(v), what)
	}
	switch t.NamedType {
	case "Int":
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, want("an Int")
		}
		return n, nil
	case "Float":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, want("a finite Float")
		}
		return f, nil
	case "Boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, want("true or false")
		}
		return b, nil
	case "String", "ID", "PartialDate", "DateTime":
		return v, nil
	}
	def := schema.Types[t.NamedType]
	if def != nil && def.Kind == ast.Enum {
		return v, nil
	}
	var x any
	if err := json.Unmarshal([]byte(v), &x); err != nil {
		return nil, want("JSON")
	}
	return x, nil
}

func truncateParam(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
