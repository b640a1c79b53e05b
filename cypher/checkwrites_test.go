package cypher_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
)

// TestCheckWritesInChunks: CheckWrites judges a write a chunk of rows at
// a time, and whatever the chunk it refuses the same rows for the same
// reasons: what spans chunks (a source or an entity the write holds, an
// id given twice, a relation given twice with other ends) is the whole
// write's, and each chunk reads what it names of the graph.
func TestCheckWritesInChunks(t *testing.T) {
	f := newGateFixture(t)
	ctx := casegraph.WithPrincipal(testContext(t), f.editorA)
	a := f.a
	person := func(id string, kind casegraph.Kind, src string) casegraph.Entity {
		return casegraph.Entity{ID: id, Kind: kind, Name: "Name " + id, Dataset: a, SourceIDs: []string{src}, KeepProtection: true}
	}
	rel := func(id string, typ casegraph.RelationType, from, to, src string) casegraph.Relation {
		r := f.relation(id, typ, from, to)
		r.SourceIDs = []string{src}
		return r
	}
	const reserved = "protected-0123456789abcdef"
	w := casegraph.Writes{
		Sources: []casegraph.Source{
			{ID: a + ":s-new", Title: "New", Dataset: a},
			{ID: f.srcB, Title: "B's, taken", Dataset: a},
			{ID: a + ":s-new2", Title: "New 2", Dataset: a},
		},
		Entities: []casegraph.Entity{
			person(a+":p1", casegraph.KindPerson, a+":s-new"),          // cites a source of the write
			f.entity(f.witness, a),                                     // taken: the protected witness
			person(a+":p1", casegraph.KindOrganization, f.srcA),        // given twice, as another kind
			person(a+":p2", casegraph.KindPerson, f.srcB),              // cites a source of the write (refused itself)
			person(a+":p3", casegraph.KindPerson, f.srcA),              // fine
			person(a+":p3", casegraph.KindPerson, f.srcA),              // given twice, as the same kind
			person(a+":p4", casegraph.KindPerson, a+":missing-source"), // cites nothing
		},
		Relations: []casegraph.Relation{
			rel(a+":r1", "MEMBER_OF", a+":p1", f.org, a+":s-new2"),  // an end and a source of the write
			rel(a+":r2", "MEMBER_OF", f.witnessB, f.org, f.srcA),    // an end editor A may not see
			rel(a+":r1", "MEMBER_OF", a+":p3", f.org, f.srcA),       // given twice, other ends
			rel(f.rPlain, "EMPLOYED_BY", f.plain, f.org, f.srcA),    // an id held by another type
			rel(a+":r4", "MEMBER_OF", a+":p3", f.orgB, f.srcA),      // an end in B
			rel(a+":r5", "MEMBER_OF", f.plain, f.org, a+":s-new"),   // fine
			rel(reserved, "MEMBER_OF", f.plain, f.org, f.srcA),      // reserved
			rel(a+":r1", "MEMBER_OF", a+":p1", f.org, f.srcA),       // given twice, as the first
			rel(a+":r6", "MEMBER_OF", a+":p1", f.org, a+":missing"), // cites nothing
			rel(a+":r7", "MEMBER_OF", a+":nobody", f.org, f.srcA),   // no such end
		},
	}
	judged := func(chunk int) []string {
		t.Helper()
		defer cypher.SetCheckChunk(chunk)()
		before := slices.Clone(w.Relations)
		refused, err := f.s.CheckWrites(ctx, w, nil)
		if err != nil {
			t.Fatalf("chunks of %d: %v", chunk, err)
		}
		if !slices.EqualFunc(before, w.Relations, func(x, y casegraph.Relation) bool { return fmt.Sprint(x) == fmt.Sprint(y) }) {
			t.Errorf("chunks of %d: CheckWrites changed the caller's rows", chunk)
		}
		var out []string
		for _, r := range refused {
			out = append(out, fmt.Sprintf("%s %d %s: %s", r.Kind, r.Index, casegraph.ErrorCode(r.Err), casegraph.ErrorMessage(r.Err)))
		}
		return out
	}
	whole := judged(1000)
	var places []string
	for _, r := range whole {
		var kind, code string
		var i int
		fmt.Sscanf(r, "%s %d %s", &kind, &i, &code)
		places = append(places, fmt.Sprintf("%s %d %s", kind, i, code))
	}
	want := []string{
		"source 1 CONFLICT:",
		"entity 1 CONFLICT:", "entity 2 CONFLICT:", "entity 6 BAD_USER_INPUT:",
		"relation 1 NOT_FOUND:", "relation 2 CONFLICT:", "relation 3 CONFLICT:", "relation 4 NOT_FOUND:",
		"relation 6 BAD_USER_INPUT:", "relation 8 BAD_USER_INPUT:", "relation 9 NOT_FOUND:",
	}
	if !slices.Equal(places, want) {
		t.Fatalf("refused in one chunk:\n%v\nwant\n%v\n(%v)", places, want, whole)
	}
	for _, chunk := range []int{1, 2, 3} {
		if got := judged(chunk); !slices.Equal(got, whole) {
			t.Errorf("chunks of %d refused\n%v\nwant, as in one chunk,\n%v", chunk, got, whole)
		}
	}

	// The relations given after the write, in parts (a file read again),
	// are judged as those of the write, counted on from them; the rows of
	// an id given twice left out (the caller refuses those itself).
	var once []casegraph.Relation
	for i, r := range w.Relations {
		if i != 2 && i != 7 {
			once = append(once, r)
		}
	}
	var entities []casegraph.Entity
	for i, e := range w.Entities {
		if i != 2 && i != 5 {
			entities = append(entities, e)
		}
	}
	kind := func(id string) (casegraph.Kind, bool) {
		for _, e := range entities {
			if e.ID == id {
				return e.Kind, true
			}
		}
		return "", false
	}
	given := w
	for _, part := range []int{1, 3, 100} {
		given.Entities, given.Relations = entities[:1], once[:2]
		more := &casegraph.MoreWrites{
			Kind:      kind,
			Entities:  parts(entities[1:], part),
			Relations: parts(once[2:], part),
		}
		parted, err := f.s.CheckWrites(ctx, given, more)
		if err != nil {
			t.Fatal(err)
		}
		given.Entities, given.Relations = entities, once
		whole, err := f.s.CheckWrites(ctx, given, nil)
		if err != nil {
			t.Fatal(err)
		}
		show := func(rs []casegraph.Refusal) (out []string) {
			for _, r := range rs {
				out = append(out, fmt.Sprintf("%s %d %s: %s", r.Kind, r.Index, casegraph.ErrorCode(r.Err), casegraph.ErrorMessage(r.Err)))
			}
			return out
		}
		if got, want := show(parted), show(whole); !slices.Equal(got, want) || len(want) < 8 {
			t.Errorf("entities and relations in parts of %d refused\n%v\nwant, as given whole,\n%v", part, got, want)
		}
	}
	// An error of the parts' own (a file changed) is returned as it is.
	boom := errors.New("the file changed")
	if _, err := f.s.CheckWrites(ctx, given, &casegraph.MoreWrites{Relations: func(func([]casegraph.Relation) error) error { return boom }}); !errors.Is(err, boom) {
		t.Errorf("an error of the parts: %v, want it as it is", err)
	}
}

// parts yields rows n at a time, each part a copy (as a file read again
// gives them).
func parts[T any](rows []T, n int) func(yield func([]T) error) error {
	return func(yield func([]T) error) error {
		for rest := rows; len(rest) > 0; rest = rest[min(n, len(rest)):] {
			if err := yield(slices.Clone(rest[:min(n, len(rest))])); err != nil {
				return err
			}
		}
		return nil
	}
}
