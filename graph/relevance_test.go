package graph_test

// Search relevance, measured: a set of queries (names, partial names,
// aliases, transliterations, a misspelling, description-only terms, stop
// words) on the seed and on a generated set, with the rank of the expected
// entity, precision at 5 and 10, and the hits that hold no word of the
// query but its stop words. `go test ./graph -run 'TestSearchRelevance|TestSearchRankingOnAGeneratedSet' -v`
// prints the tables of bench/README.md ("Search relevance").

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
	"github.com/casegraph/casegraph/server/servertest"
)

// relevanceCase is a query, the entity expected first (or none) and the
// entities that are right answers (the expected one among them).
type relevanceCase struct {
	kind, text string
	want       string
	relevant   []string
}

// relevanceHit is a search result as the relevance measure sees it.
type relevanceHit struct {
	id    string
	words []string // of its name, aliases and description
}

// relevanceRow is a case's measure.
type relevanceRow struct {
	relevanceCase
	hits     int
	rank     int // of want, 1-based; 0 when absent
	p5, p10  float64
	r10      float64
	stopOnly int // hits in the first 10 with no word that begins with a content word of the text or is one typo from it
}

// measure ranks a case's hits. Precision at k is the right answers among
// the first k results over how many results there are among them (so a
// short list of right answers scores 1, and noise lowers it; no result at
// all is -1, shown "—"); recall at 10 is the right answers among the first
// 10 over min(10, how many right answers there are).
func measure(c relevanceCase, hits []relevanceHit) relevanceRow {
	r := relevanceRow{relevanceCase: c, hits: len(hits)}
	right := func(k int) int {
		n := 0
		for _, h := range hits[:min(k, len(hits))] {
			if slices.Contains(c.relevant, h.id) {
				n++
			}
		}
		return n
	}
	at := func(k int) float64 {
		if len(hits) == 0 {
			return -1
		}
		return float64(right(k)) / float64(min(k, len(hits)))
	}
	r.p5, r.p10, r.r10 = at(5), at(10), -1
	if len(c.relevant) > 0 {
		r.r10 = float64(right(10)) / float64(min(10, len(c.relevant)))
	}
	content := casegraph.ContentWords(casegraph.Words(c.text))
	for i, h := range hits {
		if h.id == c.want && r.rank == 0 {
			r.rank = i + 1
		}
		if i < 10 && !slices.ContainsFunc(content, func(w string) bool {
			return slices.ContainsFunc(h.words, func(hw string) bool { return strings.HasPrefix(hw, w) || casegraph.WithinOneEdit(hw, w) })
		}) {
			r.stopOnly++
		}
	}
	return r
}

func relevanceTable(rows []relevanceRow) string {
	var b strings.Builder
	b.WriteString("| query | kind | hits | rank of expected | P@5 | P@10 | R@10 | stop-word-only hits in the first 10 |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	num := func(f float64) string {
		if f < 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", f)
	}
	for _, r := range rows {
		rank := "—"
		if r.want == "" {
			rank = "(any)"
		} else if r.rank > 0 {
			rank = fmt.Sprint(r.rank)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %d |\n", r.text, r.kind, r.hits, rank, num(r.p5), num(r.p10), num(r.r10), r.stopOnly)
	}
	return b.String()
}

// searchHits runs a search of up to 100 results in a dataset.
func searchHits(t *testing.T, h *servertest.Harness, ds, text string) []relevanceHit {
	t.Helper()
	res := h.MustPost(`query($t: String!, $ds: [String!]) { search(text: $t, datasets: $ds, first: 100) {
		edges { node { id name aliases description } } } }`, map[string]any{"t": text, "ds": []string{ds}})
	var out []relevanceHit
	for _, x := range field(res, "search", "edges").([]any) {
		n := x.(map[string]any)["node"].(map[string]any)
		texts := []string{n["name"].(string)}
		if d, ok := n["description"].(string); ok {
			texts = append(texts, d)
		}
		for _, a := range n["aliases"].([]any) {
			texts = append(texts, a.(string))
		}
		hit := relevanceHit{id: strings.TrimPrefix(n["id"].(string), ds+":")}
		for _, s := range texts {
			hit.words = append(hit.words, casegraph.Words(s)...)
		}
		out = append(out, hit)
	}
	return out
}

// TestSearchRelevance measures the seed's queries, and holds the ranking
// the newcomer issue asked for: "government of qatar" finds the Government
// of Qatar first and nothing by "of" alone in the first page; a name match
// outranks every description match; stop words alone find nothing.
func TestSearchRelevance(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)
	cases := []relevanceCase{
		{"name", "government of qatar", "qatar-government", []string{"qatar-government"}},
		{"name", "qatar", "qatar", []string{"qatar", "qatar-government"}},
		{"name", "special court for sierra leone", "special-court-sierra-leone", []string{"special-court-sierra-leone"}},
		{"name", "the hague", "the-hague", []string{"the-hague"}},
		{"partial name", "sierra leone", "sierra-leone", []string{"sierra-leone", "sierra-leone-civil-war", "special-court-sierra-leone"}},
		{"partial name", "silva", "desmond-de-silva", []string{"desmond-de-silva"}},
		{"partial name", "geneva", "geneva", []string{"geneva", "geneva-ii-conference"}},
		{"partial name", "caesar report", "caesar-report", []string{"caesar-report", "caesar-report-article"}},
		{"alias", "assad", "bashar-al-assad", []string{"bashar-al-assad"}},
		{"alias", "SCSL", "special-court-sierra-leone", []string{"special-court-sierra-leone"}},
		{"alias", "den haag", "the-hague", []string{"the-hague"}},
		{"alias", "qatari government", "qatar-government", []string{"qatar-government"}},
		{"alias", "state of qatar", "", []string{"qatar", "qatar-government"}}, // an alias of both
		{"transliteration", "milosevic", "slobodan-milosevic", []string{"slobodan-milosevic", "milosevic-prosecution"}},
		{"transliteration", "Милошевић", "slobodan-milosevic", []string{"slobodan-milosevic"}},
		{"transliteration", "قطر", "qatar", []string{"qatar"}},
		{"misspelling", "geofrey nice", "geoffrey-nice", []string{"geoffrey-nice"}},
		{"description only", "barrister", "geoffrey-nice", []string{"geoffrey-nice"}},
		{"description only", "photographer", "caesar", []string{"caesar", "syrian-military-police"}},
		{"stop words", "the of", "", nil},
		{"stop words", "of the", "", nil},
		{"stop words", "to be or not to be", "", nil},
	}
	var rows []relevanceRow
	for _, c := range cases {
		rows = append(rows, measure(c, searchHits(t, s.h, s.ds, c.text)))
	}
	t.Logf("seed:\n%s", relevanceTable(rows))
	for _, r := range rows {
		if r.want != "" && r.rank != 1 {
			t.Errorf("%q: %s ranked %d, want first", r.text, r.want, r.rank)
		}
		if r.stopOnly > 0 {
			t.Errorf("%q: %d hits in the first 10 by stop words alone", r.text, r.stopOnly)
		}
		if r.kind == "stop words" && r.hits > 0 {
			t.Errorf("%q: %d hits, want none", r.text, r.hits)
		}
	}
}

// generatedRelevance measures queries drawn from a generated set
// (TestSearchRankingOnAGeneratedSet's 3,000 entities): a full name, its
// surname, its first name, its alias ("S. Haddad"), a name without its
// accents, an event's and a document's name without the number, and stop
// words. The right answers are the entities whose name or an alias holds
// every word of the query but its stop words.
func generatedRelevance(t *testing.T, h *servertest.Harness, ds string, batch dataset.Batch) {
	// relevant: the entities whose name or an alias holds every content word.
	relevant := func(text string) []string {
		content := casegraph.ContentWords(casegraph.Words(text))
		var out []string
		for _, e := range batch.Entities {
			texts := append([]string{e.Name}, e.Aliases...)
			if slices.ContainsFunc(texts, func(s string) bool {
				w := casegraph.Words(s)
				return !slices.ContainsFunc(content, func(c string) bool { return !slices.Contains(w, c) })
			}) {
				out = append(out, strings.TrimPrefix(e.ID, ds+":"))
			}
		}
		return out
	}
	var person, accented, event, document casegraph.Entity
	for _, e := range batch.Entities {
		switch {
		case e.Kind == casegraph.KindPerson && len(e.Aliases) > 0 && person.ID == "":
			person = e
		case e.Kind == casegraph.KindPerson && accented.ID == "" && casegraph.Fold(e.Name) != strings.ToLower(e.Name) &&
			strings.Map(asciiOnly, casegraph.Fold(e.Name)) == casegraph.Fold(e.Name):
			accented = e
		case e.Kind == casegraph.KindEvent && event.ID == "":
			event = e
		case e.Kind == casegraph.KindDocument && document.ID == "":
			document = e
		}
	}
	local := func(e casegraph.Entity) string { return strings.TrimPrefix(e.ID, ds+":") }
	withoutNumber := func(name string) string { return strings.TrimRight(name, " 0123456789") }
	names := strings.Fields(person.Name)
	var cases []relevanceCase
	add := func(kind, text, want string) {
		cases = append(cases, relevanceCase{kind, text, want, relevant(text)})
	}
	add("name", person.Name, local(person))
	add("partial name (surname)", names[len(names)-1], "")
	add("partial name (first name)", names[0], "")
	add("alias", person.Aliases[0], local(person))
	target := typoTarget(t, batch)
	add("name with a typo", misspell(target.Name), local(target))
	add("transliteration (no accents)", casegraph.Fold(accented.Name), local(accented))
	add("name (event, no number)", withoutNumber(event.Name), "")
	add("name (document, no number)", withoutNumber(document.Name), "")
	add("name with its number", event.Name, local(event))
	cases = append(cases, relevanceCase{"stop words", "in the", "", nil}, relevanceCase{"stop words", "on", "", nil})
	var rows []relevanceRow
	for _, c := range cases {
		rows = append(rows, measure(c, searchHits(t, h, ds, c.text)))
	}
	t.Logf("generated (%d entities):\n%s", len(batch.Entities), relevanceTable(rows))
	for _, r := range rows {
		if r.want != "" && r.rank == 0 {
			t.Errorf("%q: %s not found", r.text, r.want)
		}
		// A full name with a typo finds that name among the first, not
		// after the better-connected people who share its first name
		// (the degree ranked it 60th before typos were ordered by score).
		if r.kind == "name with a typo" && r.rank > 3 {
			t.Errorf("%q: %s ranked %d, want among the first 3", r.text, r.want, r.rank)
		}
		if r.stopOnly > 0 {
			t.Errorf("%q: %d hits in the first 10 by stop words alone", r.text, r.stopOnly)
		}
	}
}

// typoTarget is the person whose misspelt full name is hardest to find:
// of those whose first name at least ten others have and whose last word
// has 5 letters or more (misspell), the least connected, so that an order
// by degree alone would put the others sharing the first name before it.
func typoTarget(t *testing.T, batch dataset.Batch) casegraph.Entity {
	degree := map[string]int{}
	for _, r := range batch.Relations {
		degree[r.FromID]++
		degree[r.ToID]++
	}
	byFirst := map[string][]casegraph.Entity{}
	for _, e := range batch.Entities {
		if e.Kind == casegraph.KindPerson {
			first := strings.Fields(e.Name)[0]
			byFirst[first] = append(byFirst[first], e)
		}
	}
	var target casegraph.Entity
	best := -1
	for _, e := range batch.Entities {
		words := strings.Fields(e.Name)
		if e.Kind != casegraph.KindPerson || len(byFirst[words[0]]) < 11 || len([]rune(words[len(words)-1])) < 5 {
			continue
		}
		if best < 0 || degree[e.ID] < best || degree[e.ID] == best && e.ID < target.ID {
			target, best = e, degree[e.ID]
		}
	}
	if best < 0 {
		t.Fatal("no person of the generated set to misspell")
	}
	return target
}

// misspell is name with the middle letter of its last word of 5 letters
// or more replaced by an x: one substitution, a typo within one edit.
func misspell(name string) string {
	words := strings.Fields(name)
	for i := len(words) - 1; i >= 0; i-- {
		if r := []rune(words[i]); len(r) >= 5 {
			r[len(r)/2] = 'x'
			words[i] = string(r)
			break
		}
	}
	return strings.Join(words, " ")
}

// asciiOnly drops the runes outside ASCII (to tell names whose folding
// leaves only ASCII).
func asciiOnly(r rune) rune {
	if r > 127 {
		return -1
	}
	return r
}
