package cypher

// The cost of decoding an entity read as a map (paths, search pages,
// neighbourhoods), for what a selection usually asks for (its id and
// name) and for a fuller entity; and that what the decoders pass over
// (a property a map does not have) would have set nothing. No database.

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

// briefEntityMap is an entity as a read that shows its id and name
// returns it.
func briefEntityMap() map[string]any {
	return map[string]any{"id": "ds:person-1", "kind": "Person", "redacted": false, "name": "Abdel Hassan"}
}

// fullEntityMap is one with properties of several types, citations and
// a version.
func fullEntityMap() map[string]any {
	m := briefEntityMap()
	m["aliases"] = []any{"A. Hassan", "Abu Hassan"}
	m["description"] = "An officer of the Military Intelligence branch."
	m["nationality"] = "Syrian"
	m["birthDate"] = "1961-03"
	m["sourceIds"] = []any{"ds:source-1", "ds:source-2"}
	m["citationCredibility"] = []any{int64(2), int64(3)}
	m["dataset"] = "ds"
	m["version"] = int64(3)
	return m
}

func BenchmarkEntityFromMap(b *testing.B) {
	for _, c := range []struct {
		name string
		m    map[string]any
	}{{"id and name", briefEntityMap()}, {"fuller", fullEntityMap()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := entityFromMap(c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSubgraphFromMaps: a path's or a neighbourhood's entities (ten,
// as a read that shows their ids and names returns them), decoded into
// the answer's list.
func BenchmarkSubgraphFromMaps(b *testing.B) {
	nodes := make([]map[string]any, 10)
	for i := range nodes {
		nodes[i] = briefEntityMap()
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := subgraphFromMaps(nodes, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestZeroValuesSetNothing: entityFromMap and relationFromMap pass over
// a property the map does not have, or has as null, rather than set it to
// the value null decodes to; that is the same only while setting that
// value on a new entity or relation changes nothing, for every property
// of the tables. A property whose null meant something else (a default
// set by its setter, say) would fail here.
func TestZeroValuesSetNothing(t *testing.T) {
	for p := range casegraph.EntityPropertyRows() {
		zero, err := entityValue(map[string]any{p.Name: nil}, p) // what the decoder makes of null
		if err != nil {
			t.Fatal(err)
		}
		var e casegraph.Entity
		if err := p.Set(&e, zero); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if diff := cmp.Diff(casegraph.Entity{}, e); diff != "" {
			t.Errorf("entity property %s set to %#v changed a new entity:\n%s", p.Name, zero, diff)
		}
	}
	for p := range casegraph.RelationPropertyRows() {
		var a casegraph.RelationAttributes
		if err := p.Set(&a, nil); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if diff := cmp.Diff(casegraph.RelationAttributes{}, a); diff != "" {
			t.Errorf("relation property %s set to null changed a new relation:\n%s", p.Name, diff)
		}
	}
}
