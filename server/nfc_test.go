package server_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestNamesAreStoredComposed: a name written with a decomposed "é" (e and
// a combining accent) is stored, read back and found as the composed one.
func TestNamesAreStoredComposed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	ds := cyphertest.Dataset(t)
	const decomposed, composed = "Cafe\u0301 Ope\u0301ra", "Caf\u00e9 Op\u00e9ra"
	src := h.MustPost(`mutation S($ds: String!, $t: String!) { upsertSource(input: {title: $t, dataset: $ds}) { id title } }`,
		map[string]any{"ds": ds, "t": decomposed}).Data["upsertSource"].(map[string]any)
	written := h.MustPost(`mutation E($ds: String!, $n: String!, $s: ID!) {
		upsertEntity(input: {kind: PLACE, name: $n, aliases: [$n], dataset: $ds, sourceIds: [$s]}) { id name aliases } }`,
		map[string]any{"ds": ds, "n": decomposed, "s": src["id"]}).Data["upsertEntity"].(map[string]any)
	found := h.MustPost(`query F($ds: String!, $n: String!) {
		entities(filter: {datasets: [$ds], nameContains: $n}) { edges { node { id name aliases } } } }`,
		map[string]any{"ds": ds, "n": composed}).Data["entities"].(map[string]any)["edges"].([]any)
	if len(found) != 1 {
		t.Fatalf("found %d entities by the composed name, want 1", len(found))
	}
	read := found[0].(map[string]any)["node"]
	want := map[string]any{"id": written["id"], "name": composed, "aliases": []any{composed}}
	for what, got := range map[string]any{"written": written, "found": read} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}
	if src["title"] != composed {
		t.Errorf("source title %q, want %q", src["title"], composed)
	}
}
