package graph

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/validator/rules"

	casegraph "github.com/casegraph/casegraph"
)

// The compiled read of an operation (entityRoots, pure: no store): what
// is asked twice at the same level is read once, and a relation's
// neighbor is read as its other end, never merged into the listed entity.
func TestCompiledReadMergesAndReadsNeighborsOnce(t *testing.T) {
	es := NewSchema(Stores{}, nil, nil)
	names := &casegraph.EntityRead{}
	page := func(n int, dir casegraph.Direction, ends *casegraph.EntityRead) casegraph.RelationsRead {
		return casegraph.RelationsRead{Filter: casegraph.RelationFilter{Direction: dir}, Page: casegraph.Page{First: n}, Ends: ends}
	}
	both := casegraph.DirectionBoth
	tests := []struct {
		name  string
		query string
		ids   []string
		want  []casegraph.RelationsRead // the root's pages
	}{
		{"two aliases, the same relations of the same entity", `{ entity(id: "x") {
			a: relations(first: 5) { edges { neighbor { name } } }
			b: relations(first: 5) { edges { neighbor { id } node { id } } } } }`,
			[]string{"x"}, []casegraph.RelationsRead{page(5, both, names)}},
		{"two root aliases of the same entity, the same relations", `{
			a: entity(id: "x") { relations(first: 5) { edges { node { to { name } } } } }
			b: entity(id: "x") { relations(first: 5) { edges { node { to { name } } } } } }`,
			[]string{"x"}, []casegraph.RelationsRead{page(5, both, names)}},
		{"neighbor and to: one end read", `{ entity(id: "x") {
			relations(direction: OUTGOING, first: 5) { edges { neighbor { name } node { to { name } } } } } }`,
			[]string{"x"}, []casegraph.RelationsRead{page(5, casegraph.DirectionOutgoing, names)}},
		{"neighbors at depth 2: the entity reads its page once", `{ entity(id: "x") {
			relations(first: 20) { edges { neighbor { name relations(first: 10) { edges { neighbor { name } } } } } } } }`,
			[]string{"x"}, []casegraph.RelationsRead{
				page(20, both, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{page(10, both, names)}})}},
		// Either end may be the entity itself, so it reads what they ask
		// for too: a second page.
		{"both ends at depth 2: the entity reads their page too", `{ entity(id: "x") {
			relations(first: 20) { edges { node {
				from { name relations(first: 10) { edges { node { to { name } } } } }
				to { name relations(first: 10) { edges { node { to { name } } } } } } } } } }`,
			[]string{"x"}, []casegraph.RelationsRead{
				page(20, both, &casegraph.EntityRead{Relations: []casegraph.RelationsRead{page(10, both, names)}}),
				page(10, both, names)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := gqlparser.LoadQueryWithRules(es.Schema(), tt.query, rules.NewDefaultRules())
			if err != nil {
				t.Fatal(err)
			}
			op := &graphql.OperationContext{RawQuery: tt.query, Doc: doc, Operation: doc.Operations[0]}
			ids, read := entityRoots(op)
			if diff := cmp.Diff(tt.ids, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, read.Relations); diff != "" {
				t.Errorf("the root's pages (-want +got):\n%s", diff)
			}
		})
	}
}
