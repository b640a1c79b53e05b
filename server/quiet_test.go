package server_test

import (
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

// TestNoSchemaNamesWithoutIntrospection: with introspection off, a
// document refused by validation is answered the same whether the names
// it guesses exist or not, over /graphql and when a query is saved: no
// "Did you mean", and no message, count or place of errors that tells a
// known field, argument, type or enum value from a made-up one (a word
// list recovered 14 of 26 root fields from them). With introspection on,
// the messages say what is wrong, still without suggestions.
func TestNoSchemaNamesWithoutIntrospection(t *testing.T) {
	t.Parallel()
	guesses := []struct{ name, query string }{
		{"a root field that exists, without its argument", `query Q { entity }`},
		{"a root field that exists, without a selection", `query Q { relationTypes }`},
		{"a root field misspelt", `query Q { entiti(id: "x") { id } }`},
		{"a made-up root field", `query Q { zzz }`},
		{"a field of an interface misspelt", `query Q { entity(id: "x") { nationalty } }`},
		{"an argument misspelt", `query Q { entity(idd: "x", id: "x") { id } }`},
		{"a type misspelt", `query Q { entity(id: "x") { ... on Persn { id } } }`},
		{"an enum value misspelt", `query Q { entities(filter: {kinds: [PERSN]}) { totalCount } }`},
		{"an input field misspelt", `query Q { entities(filter: {kind: [PERSON]}) { totalCount } }`},
	}
	off := newEdge(t, func(c *server.Config) { c.Introspection = false })
	cfg := server.DefaultConfig()
	cfg.Introspection = false
	runner := server.NewRunner(cfg, servertest.NewRefusing(t))
	// A variable's value is checked apart from the document.
	vars := map[string]any{"k": []string{"PERSN"}}
	if res := off.Post(`query Q($k: [EntityKind!]) { entities(filter: {kinds: $k}) { totalCount } }`, vars); !strings.Contains(res.Raw, "with introspection off") ||
		strings.Contains(res.Raw, "PERSN") {
		t.Errorf("an enum value misspelt in the variables: %s", res.Raw)
	}
	// gqlparser takes an enum value in another case; gqlgen's binding then
	// refuses it, which names the enum and its values unless hidden.
	lower := map[string]any{"k": []string{"person"}}
	if res := off.Post(`query Q($k: [EntityKind!]) { entities(filter: {kinds: $k}) { totalCount } }`, lower); res.Code() != "BAD_USER_INPUT" ||
		!strings.Contains(res.Raw, "with introspection off") || strings.Contains(res.Raw, "PERSON") || strings.Contains(res.Raw, "EntityKind") {
		t.Errorf("an enum value in another case in the variables: %s", res.Raw)
	}
	var first, firstSaved string
	for _, g := range guesses {
		res := off.Post(g.query, nil)
		if len(res.Errors) != 1 || res.Code() != "BAD_USER_INPUT" || res.Reason() != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%s: %d %s, want one BAD_USER_INPUT GRAPHQL_VALIDATION_FAILED", g.name, res.Status, res.Raw)
		}
		if first == "" {
			first = res.Raw
		}
		if res.Raw != first {
			t.Errorf("%s is told apart from %s:\n%s\n%s", g.name, guesses[0].name, res.Raw, first)
		}
		err := runner.Check(t.Context(), g.query, nil)
		if err == nil {
			t.Fatalf("%s: saved", g.name)
		}
		if firstSaved == "" {
			firstSaved = err.Error()
		}
		if err.Error() != firstSaved {
			t.Errorf("saving %s is told apart from %s: %q, %q", g.name, guesses[0].name, err, firstSaved)
		}
	}
	on := newEdge(t, nil) // introspection on, the default
	res := on.Post(`query Q { entiti(id: "x") { id } }`, nil)
	if !strings.Contains(res.Raw, `Cannot query field \"entiti\"`) || strings.Contains(res.Raw, "Did you mean") {
		t.Errorf("with introspection on, a misspelt field: %s, want what is wrong without a suggestion", res.Raw)
	}
}
