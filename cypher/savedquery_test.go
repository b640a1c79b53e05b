package cypher_test

import (
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestSaveQueryScope: the operator's queries (the seed's) are public by
// default, an editor's private; a query shown to a dataset's readers is
// saved only by a caller who may read that dataset (NOT_FOUND otherwise,
// as for a dataset that does not exist), so that a writer of one dataset
// cannot plant queries in another's list.
func TestSaveQueryScope(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	a, b := cyphertest.Dataset(t), cyphertest.Dataset(t)
	editorB := casegraph.WithPrincipal(t.Context(), casegraph.Principal{ID: "test:editor-b", Role: casegraph.RoleEditor, Datasets: []string{b}})
	q := func(name string, vis casegraph.Visibility, ds ...string) casegraph.SavedQuery {
		return casegraph.SavedQuery{Name: name, Title: name, Document: "{ __typename }", Visibility: vis, Datasets: ds}
	}
	t.Cleanup(func() {
		for _, name := range []string{a + "-op", b + "-mine", b + "-theirs"} {
			_, _ = s.DeleteSavedQuery(casegraph.AsOperator(t.Context()), name)
		}
	})
	got, err := s.SaveQuery(casegraph.AsOperator(t.Context()), q(a+"-op", ""))
	if err != nil || got.Visibility != casegraph.VisibilityPublic {
		t.Errorf("the operator's query: %+v, %v; want PUBLIC", got.Visibility, err)
	}
	if got, err = s.SaveQuery(editorB, q(b+"-mine", "")); err != nil || got.Visibility != casegraph.VisibilityPrivate {
		t.Errorf("an editor's query: %+v, %v; want PRIVATE", got.Visibility, err)
	}
	if _, err := s.SaveQuery(editorB, q(b+"-theirs", casegraph.VisibilityDatasets, b, a)); casegraph.ErrorCode(err) != casegraph.CodeNotFound || !strings.Contains(err.Error(), "no dataset") {
		t.Errorf("editor B saving a query for dataset A's readers: %v, want NOT_FOUND", err)
	}
	if _, err := s.SaveQuery(editorB, q(b+"-theirs", casegraph.VisibilityDatasets, b)); err != nil {
		t.Errorf("editor B saving a query for its own dataset's readers: %v", err)
	}
}
