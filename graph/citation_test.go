package graph_test

// Evidence as citations over the API: graded sources, a relation citing
// two sources with two quotes, the credibility 1 computed (never typed),
// grades kept current when a source changes, grade filters on paths and
// neighbourhoods, and a source the caller may not read left out.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

const upsertSource = `mutation S($in: SourceInput!) { upsertSource(input: $in) {
  id title publisher kind language archivedUrl sha256 reliability } }`

const citedRelation = `query R($id: ID!) { relation(id: $id) { quote sources { id }
  citations { source { id } quote locator credibility typedCredibility grade } } }`

// sameJSON compares an answer's value with JSON text (keys in any order).
func sameJSON(t *testing.T, want string, got any) string {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	return cmp.Diff(w, got)
}

func TestCitations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sha := strings.Repeat("0f", 32)
	hrw := f.id("hrw")
	res := f.h.MustPost(upsertSource, map[string]any{"in": map[string]any{"id": hrw, "title": "If the dead could speak", "dataset": f.ds,
		"publisher": "Human Rights Watch", "kind": "REPORT", "language": "en", "archivedUrl": "https://web.archive.org/web/2015/https://hrw.org/x",
		"sha256": sha, "reliability": "B"}})
	want := map[string]any{"id": "source~" + hrw, "title": "If the dead could speak", "publisher": "Human Rights Watch", "kind": "REPORT",
		"language": "en", "archivedUrl": "https://web.archive.org/web/2015/https://hrw.org/x", "sha256": sha, "reliability": "B"}
	if diff := cmp.Diff(want, field(res, "upsertSource")); diff != "" {
		t.Errorf("upsertSource (-want +got):\n%s", diff)
	}
	// The fixture's source has no publisher and no reliability: F.
	guardian := f.id("guardian")
	f.h.MustPost(upsertSource, map[string]any{"in": map[string]any{"id": guardian, "title": "The Caesar photos", "dataset": f.ds,
		"publisher": "The Guardian", "kind": "ARTICLE", "reliability": "C"}})

	t.Run("source grades and fields are checked", func(t *testing.T) {
		for name, in := range map[string]map[string]any{
			"a reliability outside A-F":   {"reliability": "G"},
			"a language of three letters": {"language": "eng"},
			"a hash of upper case":        {"sha256": strings.ToUpper(sha)},
			"an archive not http":         {"archivedUrl": "ftp://example.org/x"},
		} {
			in["id"], in["title"], in["dataset"] = f.id("bad"), "Bad", f.ds
			res := f.h.Post(upsertSource, map[string]any{"in": in})
			if len(res.Errors) == 0 || !strings.Contains(res.Raw, "BAD_USER_INPUT") {
				t.Errorf("%s: %s, want BAD_USER_INPUT", name, res.Raw)
			}
		}
		if got := f.h.MustPost(`query($id: ID!) { source(id: $id) { id } }`, map[string]any{"id": f.id("bad")}); field(got, "source") != nil {
			t.Errorf("a refused source was written: %s", got.Raw)
		}
	})

	rel := f.id("authored")
	res = f.link(t, map[string]any{"id": rel, "type": "AUTHORED", "from": f.id("nice"), "to": f.id("report"), "sourceIds": nil,
		"citations": []map[string]any{
			{"sourceId": hrw, "quote": "Nice was one of the three authors", "locator": "p. 2", "credibility": 2},
			{"sourceId": guardian, "quote": "the report's authors, led by Sir Geoffrey Nice", "locator": "para 4", "credibility": 3},
			{"sourceId": f.src},
		}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	t.Run("two sources keep two quotes, and confirm each other", func(t *testing.T) {
		got := f.h.MustPost(citedRelation, map[string]any{"id": rel})
		want := `[{"source":{"id":"source~` + hrw + `"},"quote":"Nice was one of the three authors","locator":"p. 2","credibility":1,"typedCredibility":2,"grade":"B1"},` +
			`{"source":{"id":"source~` + guardian + `"},"quote":"the report's authors, led by Sir Geoffrey Nice","locator":"para 4","credibility":1,"typedCredibility":3,"grade":"C1"},` +
			`{"source":{"id":"source~` + f.src + `"},"quote":null,"locator":null,"credibility":6,"typedCredibility":6,"grade":"F6"}]`
		if diff := sameJSON(t, want, field(got, "relation", "citations")); diff != "" {
			t.Errorf("citations (-want +got):\n%s", diff)
		}
		// The deprecated fields answer as before: the first quote, the sources.
		if q := field(got, "relation", "quote"); q != "Nice was one of the three authors" {
			t.Errorf("quote = %v, want the first citation's", q)
		}
		if n := len(field(got, "relation", "sources").([]any)); n != 3 {
			t.Errorf("%d sources, want 3", n)
		}
	})

	t.Run("credibility 1 is refused when typed", func(t *testing.T) {
		res := f.link(t, map[string]any{"type": "AUTHORED", "from": f.id("firm"), "to": f.id("report"), "sourceIds": nil,
			"citations": []map[string]any{{"sourceId": hrw, "credibility": 1}}})
		if len(res.Errors) == 0 || !strings.Contains(res.Raw, "BAD_USER_INPUT") || !strings.Contains(res.Raw, "is not typed; it is computed") {
			t.Errorf("typed credibility 1: %s, want BAD_USER_INPUT", res.Raw)
		}
		res = f.link(t, map[string]any{"type": "AUTHORED", "from": f.id("firm"), "to": f.id("report"),
			"citations": []map[string]any{{"sourceId": hrw}}})
		if len(res.Errors) == 0 || !strings.Contains(res.Raw, "not both") {
			t.Errorf("citations and other sourceIds: %s, want BAD_USER_INPUT", res.Raw)
		}
	})

	t.Run("a change of publisher grades the citations again", func(t *testing.T) {
		// Now one publisher: neither confirms the other.
		f.h.MustPost(upsertSource, map[string]any{"in": map[string]any{"id": guardian, "title": "The Caesar photos", "dataset": f.ds,
			"publisher": "Human Rights Watch", "kind": "ARTICLE", "reliability": "A"}})
		got := f.h.MustPost(citedRelation, map[string]any{"id": rel})
		var grades []string
		for _, c := range field(got, "relation", "citations").([]any) {
			grades = append(grades, c.(map[string]any)["grade"].(string))
		}
		if diff := cmp.Diff([]string{"B2", "A3", "F6"}, grades); diff != "" {
			t.Errorf("grades after the publisher changed (-want +got):\n%s", diff)
		}
	})

	t.Run("grade filters on paths and neighbourhoods", func(t *testing.T) {
		// nice -AUTHORED(B2, A3, F6)- report; nice -MEMBER_OF(F6)- firm.
		f.link(t, map[string]any{"id": f.id("member"), "type": "MEMBER_OF", "from": f.id("nice"), "to": f.id("firm")})
		const paths = `query($from: ID!, $to: ID!, $f: PathFilter) { shortestPath(from: $from, to: $to, filter: $f) { length } }`
		const hood = `query($id: ID!, $f: PathFilter) { neighborhood(id: $id, filter: $f) { nodes { id } } }`
		for _, tt := range []struct {
			filter       map[string]any
			path, member bool
		}{
			{nil, true, true},
			{map[string]any{"minReliability": "B"}, true, false},
			{map[string]any{"minReliability": "A", "minCredibility": 3}, true, false},
			{map[string]any{"minReliability": "B", "minCredibility": 2}, true, false},
			{map[string]any{"minReliability": "A", "minCredibility": 2}, false, false}, // no one citation is both
			{map[string]any{"minCredibility": 1}, false, false},
			{map[string]any{"minReliability": "F", "minCredibility": 6}, true, true},
		} {
			got := f.h.MustPost(paths, map[string]any{"from": f.id("nice"), "to": f.id("report"), "f": tt.filter})
			if found := field(got, "shortestPath") != nil; found != tt.path {
				t.Errorf("shortestPath under %v: found %t, want %t (%s)", tt.filter, found, tt.path, got.Raw)
			}
			got = f.h.MustPost(hood, map[string]any{"id": f.id("nice"), "f": tt.filter})
			if hasFirm := strings.Contains(got.Raw, `"`+f.id("firm")+`"`); hasFirm != tt.member {
				t.Errorf("neighborhood under %v: firm in it %t, want %t (%s)", tt.filter, hasFirm, tt.member, got.Raw)
			}
		}
		res := f.h.Post(paths, map[string]any{"from": f.id("nice"), "to": f.id("report"), "f": map[string]any{"minCredibility": 7}})
		if !strings.Contains(res.Raw, "BAD_USER_INPUT") {
			t.Errorf("minCredibility 7: %s, want BAD_USER_INPUT", res.Raw)
		}
	})

	t.Run("entities cite with citations too", func(t *testing.T) {
		res := f.upsert(t, map[string]any{"id": f.id("caesar"), "kind": "PERSON", "name": "Caesar", "sourceIds": nil,
			"citations": []map[string]any{{"sourceId": hrw, "quote": "a military police photographer", "locator": "p. 7", "credibility": 2}}})
		if len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
		got := f.h.MustPost(`query($id: ID!) { entity(id: $id) { citations { source { id } quote locator grade } } }`, map[string]any{"id": f.id("caesar")})
		want := `[{"source":{"id":"source~` + hrw + `"},"quote":"a military police photographer","locator":"p. 7","grade":"B2"}]`
		if diff := sameJSON(t, want, field(got, "entity", "citations")); diff != "" {
			t.Errorf("entity citations (-want +got):\n%s", diff)
		}
	})
}

// TestCitationOfAnUnreadableSource: a citation of a source of a dataset
// the caller may not read is left out, as the source is left out of
// sources; the claim's other citations stay.
func TestCitationOfAnUnreadableSource(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	b, bsrc, _ := otherDataset(t, f.h, "Elsewhere Ltd")
	rel := f.id("r")
	res := f.link(t, map[string]any{"id": rel, "type": "MEMBER_OF", "from": f.id("nice"), "to": f.id("firm"), "sourceIds": nil,
		"citations": []map[string]any{{"sourceId": f.src, "quote": "ours"}, {"sourceId": bsrc, "quote": "theirs"}}})
	if len(res.Errors) > 0 {
		t.Fatal(res.Raw)
	}
	reader := f.h.Key(casegraph.NewAPIKey{Name: "reader of A", Role: casegraph.RoleReader, Datasets: []string{f.ds}})
	got := f.h.PostAs(reader, citedRelation, map[string]any{"id": rel})
	if strings.Contains(got.Raw, bsrc) || strings.Contains(got.Raw, "theirs") || strings.Contains(got.Raw, b) {
		t.Errorf("a reader of A sees B's source or its words: %s", got.Raw)
	}
	if !strings.Contains(got.Raw, `"quote":"ours"`) {
		t.Errorf("a reader of A lost A's citation: %s", got.Raw)
	}
}
