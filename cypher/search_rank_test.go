package cypher_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// rankedHit is what a ranking decides of a candidate: its place (by
// order), tier and matched field.
type rankedHit struct {
	ID    string
	Tier  int
	Field casegraph.MatchField
}

func rankedHits(rs []casegraph.SearchResult) []rankedHit {
	out := make([]rankedHit, len(rs))
	for i, r := range rs {
		out[i] = rankedHit{r.Entity.ID, r.Tier, r.Field}
	}
	return out
}

// TestSearchRanksAsRank: the statement ranks a search's candidates
// exactly as casegraph.Rank does (the ranking's definition), over the same
// candidates: every one read whole, in a page as long as the window, and
// ranked again in Go, must come in the same order with the same tiers and
// fields. On a generated set (names with diacritics, particles, initials
// as aliases, degrees from relations) and entities written for the tiers'
// edges (identifiers, stop words, punctuation, one-letter words, letters
// beyond the Basic Multilingual Plane, ties), for texts drawn from the
// names: whole names, words, misspellings, prefixes, with stop words.
// And each page, forward and backward, is Window's part of that ranking.
func TestSearchRanksAsRank(t *testing.T) {
	t.Parallel()
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 5*time.Minute)
	defer cancel()
	batch, err := dataset.GenerateBatch(dataset.GenOptions{Entities: 1500, Relations: 6000, Seed: 28, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, batch, s, dataset.Options{BatchSize: 5000}); err != nil {
		t.Fatal(err)
	}
	src := casegraph.Source{ID: ds + "-src", Title: "a source", Dataset: ds}
	if _, err := s.UpsertSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	passport := func(v string) []casegraph.Identifier {
		return []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: v}}
	}
	written := []casegraph.Entity{
		{Name: "The Who", Aliases: []string{"Who, The"}},
		{Name: "Who Else"},
		{Name: "Carla Ponte", Aliases: []string{"Carla del Ponte", "C. Ponte"}, Attributes: casegraph.Attributes{Identifiers: passport("AB-123 456")}},
		{Name: "Ponte"},
		{Name: "Ponte"},
		{Name: "Pontes Carla"},
		{Name: "Karla Ponte"},
		{Name: "Ab 123/456"},
		{Name: "Registry 123456", Attributes: casegraph.Attributes{Identifiers: passport("123456")}},
		{Name: "Élodie Ōkubo-Smith", Aliases: []string{"E. Okubo"}},
		{Name: "Malcolm X", Aliases: []string{"el-Hajj Malik el-Shabazz"}},
		{Name: "X Y"},
		{Name: "𠀀𠀁 Gate", Aliases: []string{"𠀀 Gate"}},
		{Name: "!!!", Aliases: []string{"...", "Nomen Nescio"}},
		{Name: "Minister of Defence", Aliases: []string{"Defence Minister"}, Description: "Carla Ponte met the minister."},
	}
	for i, e := range written {
		e.ID, e.Kind, e.Dataset, e.SourceIDs = fmt.Sprintf("%s-w%02d", ds, i), casegraph.KindPerson, ds, []string{src.ID}
		if _, err := s.UpsertEntity(ctx, e, nil); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
	}

	texts := []string{"the who", "who", "the", "carla ponte", "ponte carla", "carla", "ponte", "karla", "pont", "ponta",
		"AB-123 456", "ab 123 456", "123456", "123457", "elodie okubo", "okubo", "okubo smith", "y x", "malcolm x", "el shabazz", "shaba", "hajj mal", "456 ab",
		"𠀀𠀁", "𠀀 𠀁", "𠀀𠀂 gate", "nomen", "nescio", "minister of defence", "defence minister", "of defence"}
	rng := rand.New(rand.NewPCG(28, 4))
	var names []string
	for _, e := range batch.Entities {
		names = append(names, e.Name)
	}
	for range 40 {
		name := names[rng.IntN(len(names))]
		words := casegraph.Words(name)
		k := rng.IntN(len(words))
		w := []rune(words[k])
		typo := string(w)
		if len(w) >= 4 {
			w2 := append([]rune{}, w...)
			w2[len(w2)/2] = 'q'
			typo = string(w2)
		}
		texts = append(texts, name, typo, "the "+string(w))
		if len(words) > 1 && typo != string(w) {
			// The whole name with that typo: tier 5, by the score first.
			whole := slices.Clone(words)
			whole[k] = typo
			texts = append(texts, strings.Join(whole, " "))
		}
		if len(w) >= 2 {
			texts = append(texts, string(w), string(w[:min(len(w), 3)]))
		}
	}

	filter := casegraph.SearchFilter{Datasets: []string{ds}}
	seen := map[rankedHit]bool{} // the tiers and fields met (ID unset)
	for _, text := range texts {
		q := casegraph.SearchRequest{Text: text, Filter: filter, Page: casegraph.Page{First: casegraph.SearchWindow}}
		if err := q.Normalize(); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		all, err := s.Search(ctx, q)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if all.Ranked != len(all.Results) {
			t.Fatalf("%q: %d ranked, %d in a page as long as the window", text, all.Ranked, len(all.Results))
		}
		hits := make([]casegraph.SearchHit, len(all.Results))
		for i, r := range all.Results {
			hits[i] = r.SearchHit
			seen[rankedHit{Tier: r.Tier, Field: r.Field}] = true
		}
		if diff := cmp.Diff(rankedHits(casegraph.Rank(q.Words, hits)), rankedHits(all.Results)); diff != "" {
			t.Errorf("%q: the statement's ranking differs from Rank's (-Rank +statement):\n%s", text, diff)
		}
		if len(all.Results) < 5 {
			continue
		}
		// Pages of it, forward and backward, through Window.
		for _, p := range []casegraph.Page{{First: 3}, {First: 2, After: "2"}, {First: 50, After: "1"},
			{First: 3, Backward: true}, {First: 2, After: "4", Backward: true}, {First: 4, After: "2", Backward: true},
			{First: 5, After: strconv.Itoa(casegraph.SearchWindow), Backward: true}, {First: 3, After: strconv.Itoa(len(all.Results))}} {
			q.Page, q.Shows = p, []string{"name"}
			page, err := s.Search(ctx, q)
			if err != nil {
				t.Fatalf("%q, page %+v: %v", text, p, err)
			}
			offset, err := q.Offset()
			if err != nil {
				t.Fatal(err)
			}
			start, end, _ := q.Window(offset, all.Ranked)
			if diff := cmp.Diff(rankedHits(all.Results[start:end]), rankedHits(page.Results)); diff != "" {
				t.Errorf("%q, page %+v: not Window's part %d to %d of the ranking (-want +got):\n%s", text, p, start, end, diff)
			}
		}
	}
	// Every tier, and each field it can match, was ranked.
	for _, want := range []rankedHit{{"", 0, casegraph.MatchName}, {"", 1, casegraph.MatchAlias}, {"", 1, casegraph.MatchIdentifier},
		{"", 2, casegraph.MatchName}, {"", 3, casegraph.MatchAlias}, {"", 3, casegraph.MatchIdentifier}, {"", 4, casegraph.MatchName},
		{"", 4, casegraph.MatchAlias}, {"", 5, casegraph.MatchName}, {"", 5, casegraph.MatchAlias}, {"", 6, casegraph.MatchDescription}} {
		if !seen[want] {
			t.Errorf("no candidate of tier %d matched by %s: the texts do not test it", want.Tier, want.Field)
		}
	}
}

// TestRankTextsFollowWrites: the texts a search ranks by follow every
// write of a name or an alias: a merge's aliases rank the survivor by the
// merged name (an exact alias, tier 1), and migrate's backfill
// (BackfillSearch) restores them for an entity written without them (by
// a version before them, or another tool), which ranks by its name again.
func TestRankTextsFollowWrites(t *testing.T) {
	t.Parallel()
	ctx, s, ds := writePeople(t, []casegraph.Entity{{ID: "a", Name: "Quintus Varro"}, {ID: "b", Name: "Quintilla Varrone"}})
	first := func(text string) rankedHit {
		t.Helper()
		q := casegraph.SearchRequest{Text: text, Filter: casegraph.SearchFilter{Datasets: []string{ds}}, Page: casegraph.Page{First: 1}}
		if err := q.Normalize(); err != nil {
			t.Fatal(err)
		}
		page, err := s.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Results) == 0 {
			t.Fatalf("%q: no hit", text)
		}
		return rankedHits(page.Results)[0]
	}
	if _, err := s.MergeEntities(ctx, ds+"-a", []string{ds + "-b"}); err != nil {
		t.Fatal(err)
	}
	if got, want := first("quintilla varrone"), (rankedHit{ds + "-a", 1, casegraph.MatchAlias}); got != want {
		t.Errorf("the merged name: %+v, want %+v", got, want)
	}

	if _, err := neo4j.ExecuteQuery(ctx, s.Driver(), `MATCH (e:Entity {id: $id}) REMOVE e.rankName, e.rankAliases, e.rankIdentifiers`,
		map[string]any{"id": ds + "-a"}, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase("neo4j")); err != nil {
		t.Fatal(err)
	}
	if got := first("quintus varro"); got.Tier != 6 {
		t.Fatalf("without its rank texts: %+v, want tier 6 (the test reads nothing)", got)
	}
	if _, err := s.BackfillSearch(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := first("quintus varro"), (rankedHit{ds + "-a", 0, casegraph.MatchName}); got != want {
		t.Errorf("after the backfill: %+v, want %+v", got, want)
	}
	if got, want := first("quintilla varrone"), (rankedHit{ds + "-a", 1, casegraph.MatchAlias}); got != want {
		t.Errorf("the merged name after the backfill: %+v, want %+v", got, want)
	}
}

// TestSearchReadsACandidateOnce: Search's statement reads a candidate's
// ranking keys (id, degree, the rank texts) in one walk of its
// properties, one database hit, not one a key: those reads were most of
// what a search cost Neo4j past its full-text query (bench/README.md, W4).
// 30 candidates and a page of 5: at most two hits a candidate and five
// for each entity of the page (its shown properties); reading the keys one
// by one costs five a candidate.
func TestSearchReadsACandidateOnce(t *testing.T) {
	t.Parallel()
	const candidates, page = 30, 5
	people := make([]casegraph.Entity, candidates)
	for i := range people {
		people[i] = casegraph.Entity{ID: fmt.Sprintf("q%02d", i), Name: fmt.Sprintf("Quillon Marsh %d", i), Aliases: []string{fmt.Sprintf("Q. Marsh %d", i)}}
	}
	ctx, s, ds := writePeople(t, people)
	params := cypher.SearchPageParams(casegraph.SearchRequest{Words: []string{"quillon"}, Page: casegraph.Page{First: page},
		Filter: casegraph.SearchFilter{Datasets: []string{ds}}}, 0)
	prof, err := s.Profile(ctx, "Search/brief", params)
	if err != nil {
		t.Fatal(err)
	}
	var hits, ranked int64
	for _, line := range strings.Split(prof, "\n") {
		var n int64
		if _, after, ok := strings.Cut(line, " dbHits="); ok {
			fmt.Sscan(after, &n)
			hits += n
		}
		if strings.Contains(line, "Sort@") && strings.Contains(line, "degree DESC") {
			_, after, _ := strings.Cut(line, " rows=")
			fmt.Sscan(after, &ranked)
		}
	}
	if ranked != candidates {
		t.Fatalf("%d candidates ranked, want %d; the plan:\n%s", ranked, candidates, prof)
	}
	if limit := int64(2*candidates + 5*page); hits > limit {
		t.Errorf("%d database hits for %d candidates and a page of %d, want at most %d; the plan:\n%s", hits, candidates, page, limit, prof)
	}
}

// writePeople writes people (their ids the part after the dataset's)
// into a dataset of the test's own, citing one source, and returns the
// operator's context for a minute, the store and the dataset.
func writePeople(t *testing.T, people []casegraph.Entity) (context.Context, *cypher.Store, string) {
	t.Helper()
	ds := cyphertest.Dataset(t)
	s := cyphertest.Store(t, cypher.Options{})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	t.Cleanup(cancel)
	src := casegraph.Source{ID: ds + "-src", Title: "a source", Dataset: ds}
	if _, err := s.UpsertSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	for _, e := range people {
		e.ID, e.Kind, e.Dataset, e.SourceIDs = ds+"-"+e.ID, casegraph.KindPerson, ds, []string{src.ID}
		if _, err := s.UpsertEntity(ctx, e, nil); err != nil {
			t.Fatal(err)
		}
	}
	return ctx, s, ds
}
