package cypher_test

// Duplicate suggestions' runs: kept while the graph is unchanged, shared
// by requests that come together, and never shared across scopes.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/duplicate"
)

// duplicateFixture is a test's store, the operator's context, its
// dataset and a source in it.
func duplicateFixture(t *testing.T) (*cypher.Store, context.Context, string, casegraph.Source) {
	ds := cyphertest.Dataset(t)
	return cyphertest.Store(t, cypher.Options{}), casegraph.AsOperator(context.Background()), ds,
		casegraph.Source{ID: ds + ":src", Title: "A source", Dataset: ds}
}

// TestDuplicateRunKept: the next page of an unchanged graph comes from the
// run of the first (two statements: the feed's head and the page's
// entities, not a run of at least four), and a change starts a new run.
// Other tests write to the same database meanwhile: the check waits for a
// moment when nothing commits between the two pages (the feed's head the
// same before and after).
func TestDuplicateRunKept(t *testing.T) {
	t.Parallel()
	s, ctx, ds, src := duplicateFixture(t)
	var people []casegraph.Entity
	for _, name := range []string{"John Robert Smith", "J. R. Smith", "Mohammed Haddad", "Muhammad Hadad"} {
		people = append(people, casegraph.Entity{ID: ds + ":" + strings.ReplaceAll(name, " ", "-"), Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, people, nil); err != nil {
		t.Fatal(err)
	}
	q := duplicate.Request{Dataset: ds, First: 1, Limits: duplicate.DefaultLimits()}
	first, err := s.DuplicateCandidates(ctx, q)
	if err != nil || len(first.Candidates) != 1 || !first.HasNext {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	last := first.Candidates[0]
	q.After = &duplicate.Cursor{Score: last.Score, Pair: last.Pair}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the kept run was never checked")
		}
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.DuplicateCandidates(ctx, q); err != nil { // a run, if the head moved
			t.Fatal(err)
		}
		trips := s.RoundTrips()
		second, err := s.DuplicateCandidates(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		n := s.RoundTrips() - trips
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: a new run was right
		}
		if n != 2 || len(second.Candidates) != 1 || second.Candidates[0].Pair == last.Pair {
			t.Errorf("second page of an unchanged graph: %d statements, %+v; want 2, the next pair", n, second.Candidates)
		}
		break
	}

	// A dismissal is a change: the pair is gone from the next run.
	admin := casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "test:admin", Role: casegraph.RoleAdmin, Datasets: []string{casegraph.AllDatasets}})
	if _, err := s.DismissDuplicate(admin, last.Pair); err != nil {
		t.Fatal(err)
	}
	q.After = nil
	again, err := s.DuplicateCandidates(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if again.Total != first.Total-1 || (len(again.Candidates) > 0 && again.Candidates[0].Pair == last.Pair) {
		t.Errorf("after dismissing %v: %d candidates, first %+v; want %d without it", last.Pair, again.Total, again.Candidates, first.Total-1)
	}
}

// subjectReads counts the reads of a dataset's entities for duplicate
// suggestions: one a run.
type subjectReads struct{ n atomic.Int64 }

func (o *subjectReads) ObserveStatement(name string, _ time.Duration, _ error) {
	if name == "DuplicateSubjects" {
		o.n.Add(1)
	}
}

// TestDuplicateRunShared: 16 requests that ask at once for the list of a
// graph nobody changes meanwhile share one run. (Other tests write to the
// database: the check waits for 16 requests between which nothing
// committed.)
func TestDuplicateRunShared(t *testing.T) {
	t.Parallel()
	setup, ctx, ds, src := duplicateFixture(t)
	var people []casegraph.Entity
	for _, name := range []string{"John Robert Smith", "J. R. Smith", "Mohammed Haddad", "Muhammad Hadad"} {
		people = append(people, casegraph.Entity{ID: ds + ":" + strings.ReplaceAll(name, " ", "-"), Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID}})
	}
	if _, err := setup.WriteBatch(ctx, []casegraph.Source{src}, people, nil); err != nil {
		t.Fatal(err)
	}
	q := duplicate.Request{Dataset: ds, First: 10, Limits: duplicate.DefaultLimits()}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the shared run was never checked")
		}
		reads := &subjectReads{}
		s := cyphertest.Store(t, cypher.Options{Observer: reads}) // nothing kept yet
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if page, err := s.DuplicateCandidates(ctx, q); err != nil || page.Total != 2 {
					t.Errorf("%+v, %v; want 2 candidates", page, err)
				}
			}()
		}
		wg.Wait()
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: more than one run was right
		}
		if n := reads.n.Load(); n != 1 {
			t.Errorf("16 requests at once: %d runs, want 1", n)
		}
		break
	}
}

// TestDuplicateRunsByScope: a run kept for a caller with clearance never
// serves one without: the protected person in the cleared caller's pairs
// is not in the other's, though nothing changed between the two.
func TestDuplicateRunsByScope(t *testing.T) {
	t.Parallel()
	s, ctx, ds, src := duplicateFixture(t)
	witness := casegraph.Entity{ID: ds + ":witness", Kind: casegraph.KindPerson, Name: "Wqnine Zorbalova", Attributes: casegraph.Attributes{Protected: true}, Dataset: ds, SourceIDs: []string{src.ID}}
	double := casegraph.Entity{ID: ds + ":double", Kind: casegraph.KindPerson, Name: "W. Zorbalova", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{witness, double}, nil); err != nil {
		t.Fatal(err)
	}
	as := func(cleared bool) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: fmt.Sprint("test:", cleared), Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: cleared})
	}
	q := duplicate.Request{Dataset: ds, First: 10, Limits: duplicate.DefaultLimits()}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if time.Now().After(deadline) {
			t.Fatal("no moment without a commit for 20 s: the scopes of kept runs were never checked")
		}
		before, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen, err := s.DuplicateCandidates(as(true), q)
		if err != nil || seen.Total != 1 {
			t.Fatalf("with clearance: %+v, %v; want the pair with the witness", seen, err)
		}
		unseen, err := s.DuplicateCandidates(as(false), q)
		if err != nil {
			t.Fatal(err)
		}
		after, err := s.ChangeHead(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if before != after {
			continue // a commit came between: the second ran again anyway
		}
		if unseen.Total != 0 {
			t.Errorf("without clearance, after a caller with it: %+v; want no pair (the witness is not there)", unseen.Candidates)
		}
		break
	}
}

// TestDuplicateIdentifiers: a pair with an equal passport number (written
// otherwise) and transliterated names that the names' comparison does not
// take is suggested, with reasons that name the fields; another passport
// of the same issuer speaks against a namesake; a protected person who
// shares the passport is paired only for a caller with clearance.
func TestDuplicateIdentifiers(t *testing.T) {
	t.Parallel()
	s, ctx, ds, src := duplicateFixture(t)
	person := func(id, name, passport string, protected bool) casegraph.Entity {
		return casegraph.Entity{ID: ds + ":" + id, Kind: casegraph.KindPerson, Name: name, Dataset: ds, SourceIDs: []string{src.ID},
			Attributes: casegraph.Attributes{BirthDate: "1961-04-12", BirthPlace: "Daraa, Syria", Nationality: "SY", Protected: protected,
				Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: passport}}}}
	}
	people := []casegraph.Entity{
		person("a", "Abdulkarim Khaddour", "N 0123-456", false),
		person("b", "Abd al-Karim Haddur", "n0123456", false),
		person("c", "Abdulkarim Khaddour", "N7654321", false),
		person("d", "Karim H.", "N0123456", true),
	}
	people[1].BirthDate = "1961-12-04" // day and month swapped
	people[2].BirthDate = "1975"       // a namesake
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, people, nil); err != nil {
		t.Fatal(err)
	}
	if m := duplicate.CompareNames(duplicate.NameWords(people[0].Name), duplicate.NameWords(people[1].Name)); m.Similarity >= duplicate.MinNameSimilarity {
		t.Fatalf("%q and %q are alike by name (%+v): the test needs names that are not", people[0].Name, people[1].Name, m)
	}
	reader := func(cleared bool) context.Context {
		return casegraph.WithPrincipal(ctx, casegraph.Principal{ID: fmt.Sprint("test:", cleared), Role: casegraph.RoleReader, Datasets: []string{ds}, Cleared: cleared})
	}
	kinds := func(c duplicate.Candidate) map[duplicate.ReasonKind]float64 {
		out := map[duplicate.ReasonKind]float64{}
		for _, r := range c.Reasons {
			out[r.Kind] += r.Weight
		}
		return out
	}
	q := duplicate.Request{Dataset: ds, First: 10, Limits: duplicate.DefaultLimits()}
	page, err := s.DuplicateCandidates(reader(false), q)
	if err != nil {
		t.Fatal(err)
	}
	byPair := map[duplicate.Pair]duplicate.Candidate{}
	for _, c := range page.Candidates {
		byPair[c.Pair] = c
		if c.A == people[3].ID || c.B == people[3].ID {
			t.Errorf("without clearance, a pair with the protected person: %+v", c)
		}
	}
	same, ok := byPair[duplicate.OrderedPair(people[0].ID, people[1].ID)]
	if !ok {
		t.Fatalf("the pair of an equal passport not suggested: %+v", page.Candidates)
	}
	got := kinds(same)
	for _, k := range []duplicate.ReasonKind{duplicate.ReasonIdentifier, duplicate.ReasonBirthDate, duplicate.ReasonBirthPlace, duplicate.ReasonNationality} {
		if got[k] <= 0 {
			t.Errorf("pair of an equal passport: reason %s weighs %v, want it for the pair (reasons %+v)", k, got[k], same.Reasons)
		}
	}
	namesake, ok := byPair[duplicate.OrderedPair(people[0].ID, people[2].ID)]
	if !ok {
		t.Fatalf("the namesakes not suggested: %+v", page.Candidates)
	}
	if w := kinds(namesake)[duplicate.ReasonIdentifier]; w >= 0 || namesake.Score >= same.Score {
		t.Errorf("namesakes of two passports of SY: identifier weight %v, score %v (the pair of one passport %v); want against, and below",
			w, namesake.Score, same.Score)
	}

	cleared, err := s.DuplicateCandidates(reader(true), q)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cleared.Candidates {
		found = found || c.Pair == duplicate.OrderedPair(people[0].ID, people[3].ID)
	}
	if !found {
		t.Errorf("with clearance, the protected person's equal passport not suggested: %+v", cleared.Candidates)
	}
}

// TestDuplicateSubjects: the statement writes a subject's row as
// duplicate.NewSubject does, every property of it set or not, lists of
// none, one and several values (the run reads the rows, tests and the
// blocking benchmark make them).
func TestDuplicateSubjects(t *testing.T) {
	t.Parallel()
	s, ctx, ds, src := duplicateFixture(t)
	es := []casegraph.Entity{
		{ID: ds + ":p1", Kind: casegraph.KindPerson, Name: "Abdulkarim Khaddour", Aliases: []string{"Abd al-Karim Haddur", "Karim \"H.\""},
			Attributes: casegraph.Attributes{BirthDate: "1961-04-12", DeathDate: "2020", BirthPlace: "Daraa, Syria", Nationality: "SY",
				Gender: casegraph.GenderMale, Address: "12 Baghdad St., Damascus",
				Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Issuer: "SY", Value: "N 0123-456"},
					{Type: casegraph.IdentifierNationalID, Value: "0101"}}}},
		{ID: ds + ":p2", Kind: casegraph.KindPerson, Name: "Slobodan Milošević", Aliases: []string{"Milošević"}},
		{ID: ds + ":o1", Kind: casegraph.KindOrganization, Name: "Carter-Ruck",
			Attributes: casegraph.Attributes{Jurisdiction: "GB", FoundingDate: "1981", DissolutionDate: "2099-01", Address: "London"}},
		{ID: ds + ":e1", Kind: casegraph.KindEvent, Name: "Geneva II", Attributes: casegraph.Attributes{StartDate: "2014-01-22", EndDate: "2014-01-31"}},
		{ID: ds + ":d1", Kind: casegraph.KindDocument, Name: "The Caesar report", Attributes: casegraph.Attributes{PublishedAt: "2014-01"}},
	}
	for i := range es {
		es[i].Dataset, es[i].SourceIDs = ds, []string{src.ID}
	}
	if _, err := s.WriteBatch(ctx, []casegraph.Source{src}, es, nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.DuplicateSubjects(ctx, duplicate.NewRequest(ds))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]duplicate.Subject{}
	for _, sub := range got {
		byID[sub.ID] = sub
	}
	if len(got) != len(es) {
		t.Errorf("%d subjects, want %d", len(got), len(es))
	}
	for _, e := range es {
		if want := duplicate.NewSubject(e); byID[e.ID] != want {
			t.Errorf("subject %s: %+v, want %+v", e.ID, byID[e.ID], want)
		}
	}
}
