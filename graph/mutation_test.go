package graph_test

// Mutations over the API: upserts, links, deletes and merges, what is
// stored literally, and bad input that writes nothing.

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/unicode/norm"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server/servertest"
)

const entityFields = `id kind name aliases description dataset version sources { id }
  ... on Person { nationality } ... on Organization { category } ... on Event { category startDate endDate }
  ... on Document { category publishedAt pageCount url }`

const upsert = `mutation Upsert($in: EntityInput!) { upsertEntity(input: $in) { ` + entityFields + ` } }`

const link = `mutation Link($in: LinkInput!) { link(input: $in) { id type from { id } to { id } role startDate endDate status confidence quote sources { id } dataset } }`

// fixture is a dataset with a source and a few entities, through the API.
type fixture struct {
	h   *servertest.Harness
	ds  string
	src string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	h := servertest.New(t, servertest.Options{})
	ds := cyphertest.Dataset(t)
	f := fixture{h: h, ds: ds, src: ds + ":article"}
	// Whatever a test writes, the degrees must still be right at its end
	// (cleanups run last first: this one before the dataset goes).
	t.Cleanup(func() { cyphertest.CheckDegrees(t, h.Store, ds) })
	h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": f.src, "title": "The article", "dataset": ds, "url": "https://example.org/a"}})
	for _, e := range []struct{ id, kind, name string }{
		{"nice", "PERSON", "Sir Geoffrey Nice"},
		{"report", "DOCUMENT", "The report"},
		{"firm", "ORGANIZATION", "Carter-Ruck"},
		{"qatar", "ORGANIZATION", "Government of Qatar"},
		{"geneva", "PLACE", "Geneva"},
	} {
		f.upsert(t, map[string]any{"id": f.id(e.id), "kind": e.kind, "name": e.name})
	}
	return f
}

// newBareFixture is a dataset of its own with one source and nothing else,
// whose degrees must be right at the test's end.
func newBareFixture(t *testing.T) fixture {
	t.Helper()
	return newBareFixtureWith(t, servertest.Options{})
}

// newBareFixtureWith is newBareFixture on a server made with opts.
func newBareFixtureWith(t *testing.T, opts servertest.Options) fixture {
	t.Helper()
	f := fixture{h: servertest.New(t, opts), ds: cyphertest.Dataset(t)}
	f.src = f.ds + ":article"
	t.Cleanup(func() { cyphertest.CheckDegrees(t, f.h.Store, f.ds) })
	f.h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": f.src, "title": "The article", "dataset": f.ds}})
	return f
}

func (f fixture) id(s string) string { return f.ds + ":" + s }

// upsert writes an entity, filling dataset and sources when absent.
func (f fixture) upsert(t *testing.T, in map[string]any) servertest.Response {
	t.Helper()
	if _, ok := in["dataset"]; !ok {
		in["dataset"] = f.ds
	}
	if _, ok := in["sourceIds"]; !ok {
		in["sourceIds"] = []string{f.src}
	}
	return f.h.Post(upsert, map[string]any{"in": in})
}

func (f fixture) link(t *testing.T, in map[string]any) servertest.Response {
	t.Helper()
	if _, ok := in["sourceIds"]; !ok {
		in["sourceIds"] = []string{f.src}
	}
	return f.h.Post(link, map[string]any{"in": in})
}

func field(res servertest.Response, path ...string) any {
	var v any = res.Data
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestUpsertEntity(t *testing.T) {
	t.Parallel()
	f := newFixture(t)

	created := f.upsert(t, map[string]any{"kind": "EVENT", "name": "Geneva II conference", "category": "CONFERENCE",
		"startDate": "2014-01-22", "endDate": "2014-01-31", "aliases": []string{"Geneva II"}})
	if len(created.Errors) > 0 {
		t.Fatal(created.Raw)
	}
	id, _ := field(created, "upsertEntity", "id").(string)
	if !strings.HasPrefix(id, "geneva-ii-conference-") {
		t.Errorf("made-up id = %q, want a slug of the name", id)
	}
	if v := field(created, "upsertEntity", "version"); v != float64(1) {
		t.Errorf("version after create = %v, want 1", v)
	}

	updated := f.upsert(t, map[string]any{"id": id, "kind": "EVENT", "name": "Geneva II peace conference", "version": 1,
		"category": "CONFERENCE", "startDate": "2014-01"})
	if len(updated.Errors) > 0 {
		t.Fatal(updated.Raw)
	}
	if v := field(updated, "upsertEntity", "version"); v != float64(2) {
		t.Errorf("version after update = %v, want 2", v)
	}
	if v := field(updated, "upsertEntity", "endDate"); v != nil {
		t.Errorf("endDate = %v; fields left out of an upsert are cleared", v)
	}

	same := f.upsert(t, map[string]any{"id": id, "kind": "EVENT", "name": "Geneva II peace conference",
		"category": "CONFERENCE", "startDate": "2014-01"})
	if v := field(same, "upsertEntity", "version"); v != float64(2) {
		t.Errorf("version after writing the same content = %v, want 2 (nothing changed)", v)
	}

	read := f.h.MustPost(`query($id: ID!) { entity(id: $id) { name version } }`, map[string]any{"id": id})
	if diff := cmp.Diff(map[string]any{"name": "Geneva II peace conference", "version": float64(2)}, read.Data["entity"]); diff != "" {
		t.Errorf("entity (-want +got):\n%s", diff)
	}
}

func TestStoredLiterally(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, name := range []string{
		`Robert'); MATCH (n) DETACH DELETE n; //`,
		`name:(foo* OR bar~2) AND "unbalanced \ /regex/`,
		"بشار الأسد",
		"Slobodan Milos\u030cevic\u0301", // decomposed accents, stored composed (NFC)
		"🙂 emoji and \u200f right-to-left mark",
	} {
		res := f.upsert(t, map[string]any{"kind": "PERSON", "name": name, "description": "line one\nline two"})
		if len(res.Errors) > 0 {
			t.Fatalf("%q: %s", name, res.Raw)
		}
		id := field(res, "upsertEntity", "id").(string)
		got := f.h.MustPost(`query($id: ID!) { entity(id: $id) { name } }`, map[string]any{"id": id})
		if n := field(got, "entity", "name"); n != norm.NFC.String(name) {
			t.Errorf("stored %q, read back %q, want its NFC %q", name, n, norm.NFC.String(name))
		}
	}
}

// TestBadInputWritesNothing: every refused mutation leaves the dataset as
// it was, and says why with a code.
func TestBadInputWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ok := f.link(t, map[string]any{"id": f.id("authored"), "type": "AUTHORED", "from": f.id("nice"), "to": f.id("report")})
	if len(ok.Errors) > 0 {
		t.Fatal(ok.Raw)
	}
	// changed returns base with the changes applied (a nil value removes
	// the field), as the variables of a mutation.
	changed := func(base, change map[string]any) map[string]any {
		for k, v := range change {
			if v == nil {
				delete(base, k)
			} else {
				base[k] = v
			}
		}
		return map[string]any{"in": base}
	}
	linkIn := func(change map[string]any) map[string]any {
		return changed(map[string]any{"type": "REPRESENTS", "from": f.id("firm"), "to": f.id("qatar"), "sourceIds": []string{f.src}}, change)
	}
	entityIn := func(change map[string]any) map[string]any {
		return changed(map[string]any{"kind": "PERSON", "name": "Someone", "dataset": f.ds, "sourceIds": []string{f.src}}, change)
	}
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		code  string
		msg   string
	}{
		{"unknown kind", upsert, entityIn(map[string]any{"kind": "SPACESHIP"}), "BAD_USER_INPUT", "SPACESHIP"},
		{"unknown relation type", link, linkIn(map[string]any{"type": "LOVES"}), "BAD_USER_INPUT", "LOVES"},
		{"kinds the vocabulary forbids", link, linkIn(map[string]any{"type": "AUTHORED", "from": f.id("geneva"), "to": f.id("report")}), "BAD_USER_INPUT", "cannot go from a Place"},
		{"relation without a source", link, linkIn(map[string]any{"sourceIds": []string{}}), "BAD_USER_INPUT", "cite at least one source"},
		{"relation with a missing source", link, linkIn(map[string]any{"sourceIds": []string{f.id("nope")}}), "BAD_USER_INPUT", "no source with id"},
		{"entity with a missing source", upsert, entityIn(map[string]any{"sourceIds": []string{f.id("nope")}}), "BAD_USER_INPUT", "no source with id"},
		{"month 13", link, linkIn(map[string]any{"startDate": "2013-13"}), "BAD_USER_INPUT", "no month 13"},
		{"February 30", link, linkIn(map[string]any{"startDate": "2013-02-30"}), "BAD_USER_INPUT", "has 28 days"},
		{"end before start", link, linkIn(map[string]any{"startDate": "2013-03", "endDate": "2012"}), "BAD_USER_INPUT", "is before startDate"},
		{"event ends before it starts", upsert, entityIn(map[string]any{"kind": "EVENT", "startDate": "2014", "endDate": "2013-12-31"}), "BAD_USER_INPUT", "is before"},
		{"confidence 1.5", link, linkIn(map[string]any{"confidence": 1.5}), "BAD_USER_INPUT", "not between 0 and 1"},
		{"confidence NaN", link, linkIn(map[string]any{"confidence": "NaN"}), "BAD_USER_INPUT", ""},
		{"confidence -0.1", link, linkIn(map[string]any{"confidence": -0.1}), "BAD_USER_INPUT", "not between 0 and 1"},
		{"1 MB name", upsert, entityIn(map[string]any{"name": strings.Repeat("x", 1_000_000)}), "BAD_USER_INPUT", "the limit is 500"},
		{"NUL in a name", upsert, entityIn(map[string]any{"name": "a\x00b"}), "BAD_USER_INPUT", "control character"},
		{"control character in a quote", link, linkIn(map[string]any{"quote": "a\x07b"}), "BAD_USER_INPUT", "control character"},
		{"unknown from", link, linkIn(map[string]any{"from": f.id("ghost")}), "NOT_FOUND", "ghost"},
		{"unknown to", link, linkIn(map[string]any{"to": f.id("ghost"), "dataset": f.ds}), "NOT_FOUND", "ghost"},
		{"relation to itself", link, linkIn(map[string]any{"to": f.id("firm")}), "BAD_USER_INPUT", "two different entities"},
		{"an id reused for another relation", link, linkIn(map[string]any{"id": f.id("authored")}), "CONFLICT", "an id names one relation"},
		{"change of kind", upsert, entityIn(map[string]any{"id": f.id("nice"), "kind": "ORGANIZATION"}), "CONFLICT", "never changes"},
		{"stale version", upsert, entityIn(map[string]any{"id": f.id("nice"), "name": "Nice", "version": 7}), "CONFLICT", "at version 1, not 7"},
		{"version of nothing", upsert, entityIn(map[string]any{"id": f.id("ghost"), "version": 1}), "NOT_FOUND", "ghost"},
		{"category of another kind", upsert, entityIn(map[string]any{"kind": "ORGANIZATION", "category": "REPORT"}), "BAD_USER_INPUT", `unknown Organization category "REPORT" (one of GOVERNMENT,`},
		{"nationality not a code", upsert, entityIn(map[string]any{"nationality": "British"}), "BAD_USER_INPUT", "ISO 3166"},
		{"url not http", upsert, entityIn(map[string]any{"kind": "DOCUMENT", "url": "javascript:alert(1)"}), "BAD_USER_INPUT", "http"},
		{"wrong type for a field", upsert, entityIn(map[string]any{"name": 42}), "BAD_USER_INPUT", ""},
		{"missing required field", upsert, entityIn(map[string]any{"name": nil}), "BAD_USER_INPUT", ""},
		{"bad id", upsert, entityIn(map[string]any{"id": "has spaces"}), "BAD_USER_INPUT", "not a valid id"},
		{"delete unknown", `mutation { deleteEntity(id: "` + f.id("ghost") + `") { id } }`, nil, "NOT_FOUND", "ghost"},
		{"unlink unknown", `mutation { unlink(id: "` + f.id("ghost") + `") { id } }`, nil, "NOT_FOUND", "ghost"},
		{"merge different kinds", `mutation { mergeEntities(into: "` + f.id("firm") + `", from: ["` + f.id("geneva") + `"]) { id } }`, nil, "BAD_USER_INPUT", "different kinds"},
		{"merge into itself", `mutation { mergeEntities(into: "` + f.id("firm") + `", from: ["` + f.id("firm") + `"]) { id } }`, nil, "BAD_USER_INPUT", "named twice"},
		{"merge unknown", `mutation { mergeEntities(into: "` + f.id("firm") + `", from: ["` + f.id("ghost") + `"]) { id } }`, nil, "NOT_FOUND", "ghost"},
		{"source with a bad date", `mutation { upsertSource(input: {title: "x", dataset: "` + f.ds + `", publishedAt: "2014-02-30"}) { id } }`, nil, "BAD_USER_INPUT", "has 28 days"},
	}
	before := cyphertest.Snapshot(t, f.h.Store, f.ds)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.h.Post(tt.query, tt.vars)
			if res.Code() != tt.code {
				t.Fatalf("code = %q, want %s; response %s", res.Code(), tt.code, truncate(res.Raw))
			}
			if !strings.Contains(res.Errors[0].Message, tt.msg) {
				t.Errorf("message %q does not say %q", res.Errors[0].Message, tt.msg)
			}
			if after := cyphertest.Snapshot(t, f.h.Store, f.ds); !cmp.Equal(before, after) {
				t.Errorf("the graph changed (-before +after):\n%s", cmp.Diff(before, after))
			}
		})
	}
}

func truncate(s string) string {
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

func TestLinkIsIdempotentWithAnID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := map[string]any{"id": f.id("r1"), "type": "COMMISSIONED", "from": f.id("firm"), "to": f.id("report"),
		"startDate": "2014-01", "status": "REPORTED", "confidence": 0.9, "quote": "commissioned by a London-based law firm"}
	first := f.link(t, in)
	second := f.link(t, in)
	if len(first.Errors)+len(second.Errors) > 0 {
		t.Fatal(first.Raw, second.Raw)
	}
	if diff := cmp.Diff(first.Data, second.Data); diff != "" {
		t.Errorf("linking twice with one id (-first +second):\n%s", diff)
	}
	res := f.h.MustPost(`query($id: ID!) { entity(id: $id) { relations { totalCount } } }`, map[string]any{"id": f.id("firm")})
	if n := field(res, "entity", "relations", "totalCount"); n != float64(1) {
		t.Errorf("relations after linking twice = %v, want 1", n)
	}
	got := f.h.MustPost(`query($id: ID!) { relation(id: $id) { type from { id } to { id } dataset } }`, map[string]any{"id": f.id("r1")})
	want := map[string]any{"type": "COMMISSIONED", "from": map[string]any{"id": f.id("firm")}, "to": map[string]any{"id": f.id("report")}, "dataset": f.ds}
	if diff := cmp.Diff(want, got.Data["relation"]); diff != "" {
		t.Errorf("relation (-want +got):\n%s", diff)
	}
}

func TestDeleteAndUnlink(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, to := range []string{"report", "qatar"} {
		typ := "AUTHORED"
		if to == "qatar" {
			typ = "WORKED_WITH"
		}
		if res := f.link(t, map[string]any{"id": f.id("r-" + to), "type": typ, "from": f.id("nice"), "to": f.id(to)}); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	un := f.h.MustPost(`mutation($id: ID!) { unlink(id: $id) { id type } }`, map[string]any{"id": f.id("r-qatar")})
	if field(un, "unlink", "type") != "WORKED_WITH" {
		t.Errorf("unlink returned %s", un.Raw)
	}
	del := f.h.MustPost(`mutation($id: ID!) { deleteEntity(id: $id) { id deletedRelations } }`, map[string]any{"id": f.id("nice")})
	if n := field(del, "deleteEntity", "deletedRelations"); n != float64(1) {
		t.Errorf("deletedRelations = %v, want 1", n)
	}
	res := f.h.MustPost(`query($a: ID!, $b: ID!, $r: ID!) { a: entity(id: $a) { id } b: entity(id: $b) { relations { totalCount } } r: relation(id: $r) { id } }`,
		map[string]any{"a": f.id("nice"), "b": f.id("report"), "r": f.id("r-report")})
	want := map[string]any{"a": nil, "b": map[string]any{"relations": map[string]any{"totalCount": float64(0)}}, "r": nil}
	if diff := cmp.Diff(want, res.Data); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
}

func TestMergeEntities(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	src2 := f.id("second-source")
	f.h.MustPost(`mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`, map[string]any{"in": map[string]any{"id": src2, "title": "Second", "dataset": f.ds}})
	f.upsert(t, map[string]any{"id": f.id("nice2"), "kind": "PERSON", "name": "Geoffrey Nice QC", "aliases": []string{"G. Nice"}, "sourceIds": []string{src2}})
	for _, l := range []map[string]any{
		{"id": f.id("m1"), "type": "AUTHORED", "from": f.id("nice2"), "to": f.id("report")},
		{"id": f.id("m2"), "type": "WORKED_WITH", "from": f.id("firm"), "to": f.id("nice2")},
		{"id": f.id("m3"), "type": "WORKED_WITH", "from": f.id("nice"), "to": f.id("nice2")},
	} {
		if res := f.link(t, l); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	res := f.h.MustPost(`mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id name aliases version sources { id }
		relations { totalCount edges { node { id from { id } to { id } } } } } }`,
		map[string]any{"into": f.id("nice"), "from": []string{f.id("nice2")}})
	got := res.Data["mergeEntities"].(map[string]any)
	if diff := cmp.Diff([]any{"Geoffrey Nice QC", "G. Nice"}, got["aliases"]); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{map[string]any{"id": "source~" + f.src}, map[string]any{"id": "source~" + src2}}, got["sources"]); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	wantRels := []any{
		map[string]any{"node": map[string]any{"id": "relation~" + f.id("m1"), "from": map[string]any{"id": f.id("nice")}, "to": map[string]any{"id": f.id("report")}}},
		map[string]any{"node": map[string]any{"id": "relation~" + f.id("m2"), "from": map[string]any{"id": f.id("firm")}, "to": map[string]any{"id": f.id("nice")}}},
	}
	if diff := cmp.Diff(wantRels, field(res, "mergeEntities", "relations", "edges")); diff != "" {
		t.Errorf("relations moved (-want +got):\n%s", diff)
	}
	old := f.h.MustPost(`query($id: ID!) { entity(id: $id) { id } }`, map[string]any{"id": f.id("nice2")})
	if field(old, "entity", "id") != f.id("nice") {
		t.Errorf("the merged id resolves to %s, want the survivor", old.Raw)
	}
	// The merged id stands for the survivor in path searches and timelines too.
	searches := f.h.MustPost(`query($old: ID!, $to: ID!) {
		shortestPath(from: $old, to: $to) { length nodes { id } }
		neighborhood(id: $old) { nodes { id } }
		connections(ids: [$old, $to]) { nodes { id } unconnectedPairs { a { id } } }
		timeline(id: $old) { start }
	}`, map[string]any{"old": f.id("nice2"), "to": f.id("report")})
	if p := field(searches, "shortestPath").(map[string]any); p["length"] != float64(1) || p["nodes"].([]any)[0].(map[string]any)["id"] != f.id("nice") {
		t.Errorf("shortestPath from a merged id: %v", p)
	}
	if n := field(searches, "neighborhood", "nodes").([]any); len(n) < 2 || n[0].(map[string]any)["id"] != f.id("nice") {
		t.Errorf("neighborhood of a merged id: %v", n)
	}
	if n := field(searches, "connections", "unconnectedPairs").([]any); len(n) != 0 {
		t.Errorf("connections with a merged id: %v", n)
	}
	again := f.upsert(t, map[string]any{"id": f.id("nice2"), "kind": "PERSON", "name": "x"})
	if again.Code() != "CONFLICT" {
		t.Errorf("upsert of a merged id: %s, want CONFLICT", again.Raw)
	}
	// Writing the survivor as it was before the merge is a change (the
	// merge added aliases): it is written, not skipped as "the same".
	before := f.upsert(t, map[string]any{"id": f.id("nice"), "kind": "PERSON", "name": "Sir Geoffrey Nice"})
	if v := field(before, "upsertEntity", "version"); v != got["version"].(float64)+1 || len(field(before, "upsertEntity", "aliases").([]any)) != 0 {
		t.Errorf("upsert after a merge: %s (merge left version %v)", truncate(before.Raw), got["version"])
	}

	// Deleting the dataset removes the tombstones too: the same ids can be
	// made and merged again.
	if _, err := f.h.Store.DeleteDataset(casegraph.AsOperator(context.Background()), f.ds); err != nil {
		t.Fatal(err)
	}
	f.h.MustPost(`mutation S($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": f.src, "title": "The article", "dataset": f.ds}})
	for _, id := range []string{"nice", "nice2"} {
		f.upsert(t, map[string]any{"id": f.id(id), "kind": "PERSON", "name": id})
	}
	if res := f.h.Post(`mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`,
		map[string]any{"into": f.id("nice"), "from": []string{f.id("nice2")}}); len(res.Errors) > 0 {
		t.Errorf("merging again after the dataset was deleted: %s", truncate(res.Raw))
	}
}

// TestConcurrentUpserts: writers racing on one id all succeed or are
// refused; there is one entity at the end, with the last write's content
// and as many versions as writes that changed it.
func TestConcurrentUpserts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id := f.id("contested")
	const writers = 8
	var wg sync.WaitGroup
	results := make([]servertest.Response, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f.upsert(t, map[string]any{"id": id, "kind": "PERSON", "name": fmt.Sprintf("Writer %d", i)})
		}()
	}
	wg.Wait()
	ok := 0
	names := map[string]bool{}
	for _, r := range results {
		if len(r.Errors) == 0 {
			ok++
			names[field(r, "upsertEntity", "name").(string)] = true
		}
	}
	if ok == 0 {
		t.Fatalf("every writer failed: %s", results[0].Raw)
	}
	snap := cyphertest.Snapshot(t, f.h.Store, f.ds)
	count := 0
	for _, line := range snap {
		if strings.Contains(line, `"ID":"`+id+`"`) {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%d entities with id %s, want 1", count, id)
	}
	final := f.h.MustPost(`query($id: ID!) { entity(id: $id) { name version } }`, map[string]any{"id": id})
	if v := field(final, "entity", "version"); v != float64(ok) {
		t.Errorf("version = %v after %d successful distinct writes", v, ok)
	}
	if !names[field(final, "entity", "name").(string)] {
		t.Errorf("final name %v is not one a writer wrote", field(final, "entity", "name"))
	}
}

// TestMissingSourceAtItsField: a write that cites a source there is none
// of (or that the caller may not read) is refused at the citation's
// field, extensions.field a path within the input, for a form to show it
// there; sourceIds given the old way are its citations in their order.
func TestMissingSourceAtItsField(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cited := func(ids ...string) []map[string]any {
		out := make([]map[string]any, len(ids))
		for i, id := range ids {
			out[i] = map[string]any{"sourceId": id, "quote": fmt.Sprintf("quote %d", i)}
		}
		return out
	}
	entity := map[string]any{"kind": "PERSON", "name": "Someone", "dataset": f.ds}
	relation := map[string]any{"type": "REPRESENTS", "from": f.id("firm"), "to": f.id("qatar")}
	with := func(base map[string]any, key string, v any) map[string]any {
		in := maps.Clone(base)
		in[key] = v
		return map[string]any{"in": in}
	}
	tests := []struct {
		name, query string
		vars        map[string]any
		field       string
	}{
		{"an entity's second citation", upsert, with(entity, "citations", cited(f.src, f.id("nope"))), "citations[1].sourceId"},
		{"a relation's first citation", link, with(relation, "citations", cited(f.id("nope"), f.src)), "citations[0].sourceId"},
		{"an entity's sourceIds", upsert, with(entity, "sourceIds", []string{f.src, f.id("nope")}), "citations[1].sourceId"},
	}
	before := cyphertest.Snapshot(t, f.h.Store, f.ds)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refusedAt(t, f.h.Post(tt.query, tt.vars), tt.field, `no source with id "`+f.id("nope")+`"`)
		})
	}
	if after := cyphertest.Snapshot(t, f.h.Store, f.ds); !cmp.Equal(before, after) {
		t.Errorf("the graph changed (-before +after):\n%s", cmp.Diff(before, after))
	}
}

// TestPropertyErrorFields: a relation's typed property and a person's
// identifier refused are said at their field (extensions.field), for the
// explorer's forms to show them there.
func TestPropertyErrorFields(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rel := func(typ string, props map[string]any) map[string]any {
		in := map[string]any{"type": typ, "from": f.id("firm"), "to": f.id("qatar"), "sourceIds": []string{f.src}}
		maps.Copy(in, props)
		return map[string]any{"in": in}
	}
	person := func(ids ...map[string]any) map[string]any {
		return map[string]any{"in": map[string]any{"kind": "PERSON", "name": "Someone", "dataset": f.ds, "sourceIds": []string{f.src}, "identifiers": ids}}
	}
	tests := []struct {
		name, query string
		vars        map[string]any
		field, msg  string
	}{
		{"a share above all", link, rel("OWNS", map[string]any{"share": 150}), "share", "is not a percentage"},
		{"a share on a type without one", link, rel("REPRESENTS", map[string]any{"share": 10}), "share", "only OWNS relations carry it"},
		{"a currency that is no code", link, rel("FUNDS", map[string]any{"amount": 10, "currency": "dollars"}), "currency", "ISO 4217"},
		{"a currency without an amount", link, rel("FUNDS", map[string]any{"currency": "USD"}), "currency", "without an amount"},
		{"a post of two lines", link, rel("HELD_POSITION", map[string]any{"post": "a\nb"}), "post", ""},
		{"an identifier repeated", upsert, person(map[string]any{"type": "PASSPORT", "value": "N1"}, map[string]any{"type": "PASSPORT", "value": "N1"}), "identifiers[1].value", "repeats PASSPORT"},
		{"an identifier without a value", upsert, person(map[string]any{"type": "PASSPORT", "value": ""}), "identifiers[0].value", ""},
		{"an issuer of two lines", upsert, person(map[string]any{"type": "PASSPORT", "value": "N1", "issuer": "a\nb"}), "identifiers[0].issuer", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refusedAt(t, f.h.Post(tt.query, tt.vars), tt.field, tt.msg)
		})
	}
}

// refusedAt checks that a write was refused with one BAD_USER_INPUT at
// field, whose message says msg.
func refusedAt(t *testing.T, res servertest.Response, field, msg string) {
	t.Helper()
	if res.Code() != "BAD_USER_INPUT" || len(res.Errors) != 1 {
		t.Fatalf("code %q, want BAD_USER_INPUT: %s", res.Code(), truncate(res.Raw))
	}
	if got := res.Errors[0].Extensions["field"]; got != field {
		t.Errorf("extensions.field %v, want %s: %s", got, field, truncate(res.Raw))
	}
	if !strings.Contains(res.Errors[0].Message, msg) {
		t.Errorf("message %q does not say %q", res.Errors[0].Message, msg)
	}
}
