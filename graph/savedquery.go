package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue for saved queries.

func toSavedQuery(q casegraph.SavedQuery) *model.SavedQuery {
	defaults := model.JSON(q.DefaultVariables)
	if len(defaults) == 0 {
		defaults = model.JSON("{}")
	}
	return &model.SavedQuery{
		ID: casegraph.SavedQueryNodeID(q.Name, q.Version), Name: q.Name, Version: int(q.Version), Title: q.Title, Description: optional(q.Description),
		Document: q.Document, DefaultVariables: defaults, Tags: nonNil(q.Tags), CreatedAt: q.CreatedAt,
		Owner: q.Owner, Visibility: model.QueryVisibility(q.Visibility), Datasets: nonNil(q.Datasets),
		Author: q.Author, Note: optional(q.Note),
	}
}

func savedQueryFromInput(in model.SaveQueryInput) (casegraph.SavedQuery, error) {
	q := casegraph.SavedQuery{
		Name: in.Name, Title: in.Title, Description: deref(in.Description), Document: in.Document,
		DefaultVariables: json.RawMessage(in.DefaultVariables), Tags: in.Tags, Datasets: in.Datasets, Note: deref(in.Note),
	}
	if in.Visibility != nil {
		q.Visibility = casegraph.Visibility(*in.Visibility)
	}
	if string(q.DefaultVariables) == "null" {
		q.DefaultVariables = nil
	}
	return q, q.Validate()
}

type savedRunKey struct{}

// WithSavedRun marks ctx as a saved query's run: a run does not start
// another (saving refuses such documents; this holds for any that got in).
func WithSavedRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, savedRunKey{}, true)
}

func inSavedRun(ctx context.Context) bool {
	v, _ := ctx.Value(savedRunKey{}).(bool)
	return v
}

// savedQuery loads a version of a saved query (the latest when version is
// nil), checking the arguments first.
func (r *Resolver) savedQuery(ctx context.Context, name string, version *int) (casegraph.SavedQuery, error) {
	if err := casegraph.ValidateSlug("name", name); err != nil {
		return casegraph.SavedQuery{}, err
	}
	v, err := versionOf(version)
	if err != nil {
		return casegraph.SavedQuery{}, err
	}
	return r.SavedQueryStore.SavedQuery(ctx, name, v)
}

// savedQueryVersionsQueryOf is the request of savedQueryVersions:
// casegraph.NewVersionsRequest's default, and what the client
// gave.
func savedQueryVersionsQueryOf(name string, first *int) casegraph.VersionsRequest {
	q := casegraph.NewVersionsRequest(name)
	given(&q.First, first)
	return q
}

// versionOf reads an optional version argument (0: the latest).
func versionOf(v *int) (int64, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 1 {
		return 0, casegraph.Errorf(casegraph.CodeBadUserInput, "version %d: versions count from 1", *v)
	}
	return int64(*v), nil
}

// MergeVariables lays a run's variables over a saved query's defaults,
// both JSON objects, key by key. A variable the document does not declare
// is refused, as GET /queries refuses its parameter, so a misspelt name is
// never silently ignored.
func MergeVariables(document string, defaults, variables json.RawMessage) (json.RawMessage, error) {
	merged := map[string]json.RawMessage{}
	for i, raw := range []json.RawMessage{defaults, variables} {
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			if i == 0 {
				return nil, fmt.Errorf("defaultVariables are not a JSON object")
			}
			return nil, casegraph.Errorf(casegraph.CodeBadUserInput, "variables must be a JSON object")
		}
		if i == 1 {
			if err := checkDeclared(document, m); err != nil {
				return nil, err
			}
		}
		for k, v := range m {
			merged[k] = v
		}
	}
	return json.Marshal(merged)
}

// checkDeclared refuses the first variable (by name) the document's
// operation does not declare.
func checkDeclared(document string, vars map[string]json.RawMessage) error {
	doc, err := parser.ParseQuery(&ast.Source{Input: document})
	if err != nil || len(doc.Operations) != 1 {
		return fmt.Errorf("a saved query that no longer parses: %v", err) // saved queries are checked when saved
	}
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		if doc.Operations[0].VariableDefinitions.ForName(name) == nil {
			return UndeclaredVariable(name)
		}
	}
	return nil
}

// UndeclaredVariable is the refusal of a variable a saved query does not
// declare, the same over GraphQL, GET and POST /queries and the CLI.
func UndeclaredVariable(name string) error {
	return casegraph.InField(name, casegraph.Errorf(casegraph.CodeBadUserInput, "the query declares no variable $%s", name))
}

func toSavedQueryResult(q casegraph.SavedQuery, res *graphql.Response) *model.SavedQueryResult {
	out := &model.SavedQueryResult{Query: toSavedQuery(q), Errors: []model.SavedQueryError{}}
	if len(res.Data) > 0 && !bytes.Equal(res.Data, []byte("null")) {
		out.Data = model.JSON(res.Data)
	}
	for _, e := range res.Errors {
		code, _ := e.Extensions["code"].(string)
		se := model.SavedQueryError{Message: e.Message, Code: code}
		for _, p := range e.Path {
			se.Path = append(se.Path, fmt.Sprint(p))
		}
		out.Errors = append(out.Errors, se)
	}
	return out
}
