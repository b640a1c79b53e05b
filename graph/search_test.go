package graph_test

// search and suggest over the API: spelling, accents and variants
// forgiven, text never syntax, pages, ranking; and timelines.

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
)

const searchQuery = `query S($text: String!, $ds: [String!], $kinds: [EntityKind!], $first: Int, $after: String) {
  search(text: $text, datasets: $ds, kinds: $kinds, first: $first, after: $after) {
    pageInfo { hasNextPage endCursor }
    edges { cursor score matchedField node { id name } }
  }
}`

func (s seedPaths) search(t *testing.T, text string, vars map[string]any) []map[string]any {
	t.Helper()
	v := map[string]any{"text": text, "ds": []string{s.ds}}
	for k, x := range vars {
		v[k] = x
	}
	res := s.h.MustPost(searchQuery, v)
	var out []map[string]any
	for _, e := range field(res, "search", "edges").([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

func (s seedPaths) firstHit(t *testing.T, text string) (id, field string) {
	t.Helper()
	edges := s.search(t, text, nil)
	if len(edges) == 0 {
		return "", ""
	}
	node := edges[0]["node"].(map[string]any)
	return strings.TrimPrefix(node["id"].(string), s.ds+":"), edges[0]["matchedField"].(string)
}

func TestSearchForgivesSpellingAccentsAndVariants(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	tests := []struct {
		text, want, field string
	}{
		{"milosevic", "slobodan-milosevic", "NAME"},
		{"MILOŠEVIĆ", "slobodan-milosevic", "NAME"},
		{"Milos\u030cevic\u0301", "slobodan-milosevic", "NAME"}, // decomposed accents
		{"assad", "bashar-al-assad", "ALIAS"},                   // an exact alias ranks above a word of the name
		{"al assad", "bashar-al-assad", "NAME"},
		{"bashar assad", "bashar-al-assad", "ALIAS"},
		{"geofrey nice", "geoffrey-nice", "NAME"},
		{"caesar", "caesar", "NAME"},
		{"قيصر", "caesar", "ALIAS"},
		{"بشار الأسد", "bashar-al-assad", "ALIAS"},
		{"The Hague", "the-hague", "NAME"},
		{"sierra leone civil war", "sierra-leone-civil-war", "NAME"},
		{"ICTY", "icty", "ALIAS"},
		{"Carter Ruck", "carter-ruck", "NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			id, field := s.firstHit(t, tt.text)
			if id != tt.want || field != tt.field {
				t.Errorf("first hit %s (%s), want %s (%s)", id, field, tt.want, tt.field)
			}
		})
	}
}

func TestSearchTextIsNeverSyntax(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	for _, text := range []string{`"caesar`, `caesar*`, `caes?r`, `(caesar`, `caesar~`, `caesar AND`, `AND OR NOT`,
		`caesar\`, `/caesar/`, `"unbalanced "quotes`, `name:caesar`, `caesar^100`, `[a TO z]`, `{!lucene}`, `&& || !`, `caesar OR 1=1`,
		"caesar \u200f", "\u202ecaesar"} {
		res := s.h.Post(searchQuery, map[string]any{"text": text, "ds": []string{s.ds}})
		if len(res.Errors) > 0 && res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%q: %s", text, truncate(res.Raw))
		}
	}
	// Text with words still finds them.
	if id, _ := s.firstHit(t, `"caesar*`); id != "caesar" {
		t.Errorf(`"caesar*: first hit %s`, id)
	}
	// Text or pages refused before the search: TestSearchArgumentsRefused.
}

func TestSearchPagesAndCursors(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	all := s.search(t, "syria", map[string]any{"first": 100})
	if len(all) < 4 {
		t.Fatalf("%d hits for syria", len(all))
	}
	var paged []string
	var after any
	for {
		res := s.h.MustPost(searchQuery, map[string]any{"text": "syria", "ds": []string{s.ds}, "first": 2, "after": after})
		for _, e := range field(res, "search", "edges").([]any) {
			paged = append(paged, e.(map[string]any)["node"].(map[string]any)["id"].(string))
		}
		if field(res, "search", "pageInfo", "hasNextPage") != true {
			break
		}
		after = field(res, "search", "pageInfo", "endCursor")
	}
	if len(paged) != len(all) {
		t.Errorf("paged %d, in one page %d", len(paged), len(all))
	}
	for i := range min(len(paged), len(all)) {
		if paged[i] != all[i]["node"].(map[string]any)["id"] {
			t.Errorf("hit %d differs between pages and one page", i)
		}
	}
	cursor := all[0]["cursor"].(string)
	for name, vars := range map[string]map[string]any{
		"another text":  {"text": "caesar", "ds": []string{s.ds}, "after": cursor},
		"another kinds": {"text": "syria", "ds": []string{s.ds}, "kinds": []string{"PERSON"}, "after": cursor},
		"tampered":      {"text": "syria", "ds": []string{s.ds}, "after": cursor[:len(cursor)-2] + "xx"},
	} {
		if res := s.h.Post(searchQuery, vars); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%s: %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
	}
}

func TestSearchRanksByTierThenDegree(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	// "government": the two governments hold the word in their names and
	// rank first; entities with it only in an alias ("Syrian government")
	// or a description follow.
	edges := s.search(t, "government", map[string]any{"first": 10})
	var ids []string
	for _, e := range edges {
		ids = append(ids, strings.TrimPrefix(e["node"].(map[string]any)["id"].(string), s.ds+":"))
	}
	if len(ids) < 3 || !slices.Contains(ids[:2], "syrian-government") || !slices.Contains(ids[:2], "qatar-government") {
		t.Errorf("ranked %v, want the two governments first", ids)
	}
	// Within a tier, the better-connected first: the UK Foreign Office (3
	// relations, "government" in no name or alias) comes after both.
	if i := slices.Index(ids, "uk-foreign-office"); i >= 0 && i < 2 {
		t.Errorf("ranked %v: a description match before a name match", ids)
	}
	for _, e := range edges {
		if e["matchedField"] == "DESCRIPTION" {
			continue
		}
		name := casegraph.Fold(e["node"].(map[string]any)["name"].(string))
		if !strings.Contains(name, "government") {
			t.Errorf("%v ranked as a name match", e["node"])
		}
	}
}

func TestSuggest(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	q := `query($p: String!, $ds: [String!], $n: Int) { suggest(prefix: $p, datasets: $ds, first: $n) { text entity { id } } }`
	got := func(prefix string) []string {
		res := s.h.MustPost(q, map[string]any{"p": prefix, "ds": []string{s.ds}, "n": 5})
		var out []string
		for _, x := range field(res, "suggest").([]any) {
			out = append(out, x.(map[string]any)["text"].(string))
		}
		return out
	}
	for prefix, first := range map[string]string{
		"gen":         "Geneva peace conference on Syria", // both begin with it; the conference has more relations
		"geneva pe":   "Geneva peace conference on Syria",
		"sir geo":     "Sir Geoffrey Nice",
		"milo":        "Milosevic trial",
		"قي":          "قيصر",
		"special cou": "Special Court for Sierra Leone",
	} {
		if list := got(prefix); len(list) == 0 || list[0] != first {
			t.Errorf("suggest(%q) = %v, want %q first", prefix, list, first)
		}
	}
	if res := s.h.Post(q, map[string]any{"p": "g"}); res.Code() != "BAD_USER_INPUT" {
		t.Errorf("one character: %s", truncate(res.Raw))
	}
	if res := s.h.Post(q, map[string]any{"p": "geneva", "n": 26}); res.Code() != "BAD_USER_INPUT" {
		t.Errorf("first 26: %s", truncate(res.Raw))
	}
}

func TestTimeline(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	q := `query($id: ID!, $from: PartialDate, $to: PartialDate) { timeline(id: $id, from: $from, to: $to) {
		start end event { id } relation { id type } } }`
	items := func(vars map[string]any) []string {
		res := s.h.MustPost(q, vars)
		var out []string
		for _, x := range field(res, "timeline").([]any) {
			it := x.(map[string]any)
			label := fmt.Sprint(it["start"], "..", it["end"], " ")
			if ev, ok := it["event"].(map[string]any); ok {
				label += strings.TrimPrefix(ev["id"].(string), s.ds+":")
			} else {
				label += it["relation"].(map[string]any)["type"].(string)
			}
			out = append(out, label)
		}
		return out
	}
	all := items(map[string]any{"id": s.id("geoffrey-nice")})
	want := []string{
		"2002-02-12..2006-03-14 milosevic-prosecution",
		"2002-02-12..2006-03-14 PARTICIPATED_IN",
		"2002-02-12..2006-03-14 PROSECUTED",
		"2014-01..<nil> AUTHORED",
	}
	if strings.Join(all, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\nwant:\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
	if got := items(map[string]any{"id": s.id("geoffrey-nice"), "from": "2010"}); len(got) != 1 {
		t.Errorf("from 2010: %v", got)
	}
	if res := s.h.Post(q, map[string]any{"id": s.id("ghost")}); res.Code() != "NOT_FOUND" {
		t.Errorf("unknown id: %s", truncate(res.Raw))
	}
	if res := s.h.Post(q, map[string]any{"id": s.id("caesar"), "from": "2014", "to": "2013"}); res.Code() != "BAD_USER_INPUT" {
		t.Errorf("to before from: %s", truncate(res.Raw))
	}
}

// TestDegreeIgnoresTombstones: an entity that others were merged into ranks
// by its relations, not by the tombstones that point at it (a count of its
// relationships took those in), in search and sorted by degree.
func TestDegreeIgnoresTombstones(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, e := range []struct{ id, name string }{
		{"alpha", "Foundation Alpha"}, {"beta", "Foundation Beta"}, {"gamma", "Gamma Trust"}, {"delta", "Delta Trust"},
	} {
		f.upsert(t, map[string]any{"id": f.id(e.id), "kind": "ORGANIZATION", "name": e.name})
	}
	for _, l := range []struct{ id, from, to string }{
		{"r1", "nice", "alpha"}, {"r2", "firm", "alpha"}, {"r3", "nice", "beta"},
	} {
		if res := f.link(t, map[string]any{"id": f.id(l.id), "type": "MEMBER_OF", "from": f.id(l.from), "to": f.id(l.to)}); len(res.Errors) > 0 {
			t.Fatal(res.Raw)
		}
	}
	f.h.MustPost(`mutation($into: ID!, $from: [ID!]!) { mergeEntities(into: $into, from: $from) { id } }`,
		map[string]any{"into": f.id("beta"), "from": []string{f.id("gamma"), f.id("delta")}})

	want := []string{f.id("alpha"), f.id("beta")} // 2 relations, then 1 (and 2 tombstones)
	var searched []string
	res := f.h.MustPost(searchQuery, map[string]any{"text": "foundation", "ds": []string{f.ds}})
	for _, e := range field(res, "search", "edges").([]any) {
		searched = append(searched, e.(map[string]any)["node"].(map[string]any)["id"].(string))
	}
	if diff := cmp.Diff(want, searched); diff != "" {
		t.Errorf("search (-want +got):\n%s", diff)
	}
	var sorted []string
	res = f.h.MustPost(listQuery, map[string]any{"f": map[string]any{"datasets": []string{f.ds}, "kinds": []string{"ORGANIZATION"}},
		"o": map[string]any{"field": "DEGREE", "direction": "DESC"}, "first": 2})
	for _, e := range field(res, "entities", "edges").([]any) {
		sorted = append(sorted, e.(map[string]any)["node"].(map[string]any)["id"].(string))
	}
	if diff := cmp.Diff(want, sorted); diff != "" {
		t.Errorf("entities by degree (-want +got):\n%s", diff)
	}
}

// TestSearchReadsWhatItShows: a search that shows of its hits only the
// text a search matches (ids, names) reads only that of its page
// (Search/brief); one that shows more reads every property of it
// (Search/full); both rank, score and match alike.
func TestSearchReadsWhatItShows(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	const wide = `query($text: String!, $ds: [String!]) { search(text: $text, datasets: $ds, first: 10) {
		edges { score matchedField node { id name description } } } }`
	vars := map[string]any{"text": "government", "ds": []string{s.ds}}
	searches := func(variant string) int {
		line := fmt.Sprintf(`casegraph_cypher_queries_total{query="Search/%s"} `, variant)
		for _, l := range strings.Split(s.h.Get("/metrics").Raw, "\n") {
			if n, ok := strings.CutPrefix(l, line); ok {
				var count int
				fmt.Sscan(n, &count)
				return count
			}
		}
		return 0
	}
	full, brief := searches("full"), searches("brief")
	narrow := s.search(t, "government", map[string]any{"first": 10})
	if searches("brief") <= brief {
		t.Error("a search showing ids and names did not read through Search/brief")
	}
	wideHits := func() []map[string]any {
		var out []map[string]any
		for _, x := range field(s.h.MustPost(wide, vars), "search", "edges").([]any) {
			out = append(out, x.(map[string]any))
		}
		return out
	}
	edges := wideHits()
	if searches("full") <= full {
		t.Error("a search showing descriptions did not read through Search/full")
	}
	if len(edges) != len(narrow) || len(edges) < 3 {
		t.Fatalf("%d hits showing descriptions, %d showing names", len(edges), len(narrow))
	}
	// The fulltext index is shared with the suite's other tests (and other
	// packages), whose writes move BM25's statistics between two searches
	// (CI saw 25.4976 against 25.4793 for one hit, and more than 5% under
	// load). So the two reads are compared hit for hit, scores exactly,
	// in a window where the index held still: a search showing names
	// before and after the one showing descriptions that agree exactly.
	// Until such a window is found, only what does not move with the
	// statistics is compared: the same hits, names and matched fields.
	same := func(a, b []map[string]any, scores bool) string {
		if len(a) != len(b) {
			return fmt.Sprintf("%d hits against %d", len(a), len(b))
		}
		for i := range a {
			na, nb := a[i]["node"].(map[string]any), b[i]["node"].(map[string]any)
			if na["id"] != nb["id"] || na["name"] != nb["name"] || a[i]["matchedField"] != b[i]["matchedField"] || scores && a[i]["score"] != b[i]["score"] {
				return fmt.Sprintf("hit %d: %v against %v", i, a[i], b[i])
			}
		}
		return ""
	}
	byID := func(hits []map[string]any) []map[string]any {
		out := slices.Clone(hits)
		slices.SortFunc(out, func(a, b map[string]any) int {
			return strings.Compare(a["node"].(map[string]any)["id"].(string), b["node"].(map[string]any)["id"].(string))
		})
		return out
	}
	if diff := same(byID(edges), byID(narrow), false); diff != "" {
		t.Errorf("showing descriptions against showing names: %s", diff)
	}
	compared := false
	for try := 0; try < 10 && !compared; try++ {
		before := s.search(t, "government", map[string]any{"first": 10})
		between := wideHits()
		after := s.search(t, "government", map[string]any{"first": 10})
		if same(before, after, true) != "" {
			continue // the index moved meanwhile
		}
		compared = true
		if diff := same(between, before, true); diff != "" {
			t.Errorf("with the index still, showing descriptions against showing names: %s", diff)
		}
		edges = between
	}
	if !compared {
		t.Log("the index moved during every try: the two reads' scores and order were not compared")
	}
	described := 0
	for _, e := range edges {
		if d, _ := e["node"].(map[string]any)["description"].(string); d != "" {
			described++
		}
	}
	if described == 0 {
		t.Error("no hit's description was read where the search shows them")
	}
}
