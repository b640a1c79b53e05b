package dataset_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/dataset"
)

// relationPropertyFile is an NDJSON file of the dataset with a relation of
// each type that carries type-specific properties, each set.
func relationPropertyFile(ds string) string {
	lines := []string{
		`{"type":"source","id":"%[1]s-src","title":"A source","dataset":"%[1]s"}`,
		`{"type":"entity","id":"%[1]s-anna","kind":"Person","name":"Anna","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"entity","id":"%[1]s-ivan","kind":"Person","name":"Ivan","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"entity","id":"%[1]s-firm","kind":"Organization","name":"Firm","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"entity","id":"%[1]s-unit","kind":"Organization","name":"Unit","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-owns","relationType":"OWNS","from":"%[1]s-anna","to":"%[1]s-firm","status":"REPORTED","share":12.5,"dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-paid","relationType":"PAID","from":"%[1]s-firm","to":"%[1]s-ivan","status":"REPORTED","amount":2500000,"currency":"USD","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-funds","relationType":"FUNDS","from":"%[1]s-unit","to":"%[1]s-firm","status":"REPORTED","amount":0.5,"dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-family","relationType":"FAMILY_OF","from":"%[1]s-anna","to":"%[1]s-ivan","status":"REPORTED","relationship":"NEPHEW_OR_NIECE","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-commands","relationType":"COMMANDS","from":"%[1]s-ivan","to":"%[1]s-unit","status":"REPORTED","post":"commander, 4th Division","rank":"major general","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-held","relationType":"HELD_POSITION","from":"%[1]s-anna","to":"%[1]s-unit","status":"REPORTED","post":"chief of staff","rank":"colonel","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-director","relationType":"DIRECTOR_OF","from":"%[1]s-ivan","to":"%[1]s-firm","status":"REPORTED","post":"chair","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
	}
	return fmt.Sprintf(strings.Join(lines, "\n")+"\n", ds)
}

// TestRelationPropertiesNDJSONRoundTrip: every type-specific property
// imported from NDJSON is exported as it was written, and importing the
// file again changes nothing.
func TestRelationPropertiesNDJSONRoundTrip(t *testing.T) {
	t.Parallel()
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	file := relationPropertyFile(ds)
	for i, want := range []int{12, 0} {
		b, err := dataset.Read(strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		stats, err := dataset.Import(ctx, b, store, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := stats.SourcesChanged + stats.EntitiesChanged + stats.RelationsChanged; got != want {
			t.Errorf("import %d: %d records new or changed, want %d", i+1, got, want)
		}
	}
	var out bytes.Buffer
	if err := store.Export(ctx, []string{ds}, dataset.NewEncoder(&out).Sink()); err != nil {
		t.Fatal(err)
	}
	// The export writes the lines' fields in its own order: compare the
	// records as read.
	in, err := dataset.Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	exported := out.String()
	back, err := dataset.Read(&out)
	if err != nil {
		t.Fatal(err)
	}
	byID := func(a, b casegraph.Relation) int { return strings.Compare(a.ID, b.ID) }
	slices.SortFunc(in.Relations, byID)
	slices.SortFunc(back.Relations, byID)
	if diff := cmp.Diff(in.Relations, back.Relations); diff != "" {
		t.Errorf("relations exported (-imported +exported):\n%s", diff)
	}
	if !strings.Contains(exported, `"share":12.5`) || !strings.Contains(exported, `"relationship":"NEPHEW_OR_NIECE"`) {
		t.Errorf("the export lacks the properties under their names:\n%s", exported)
	}
}

// TestRelationPropertiesRefusedByLine: an import line with a property its
// type does not carry, or a bad value, or a relation's property on an
// entity, is a bad line with its number and a message that names the
// property (and the types that carry it); nothing of the file is written.
func TestRelationPropertiesRefusedByLine(t *testing.T) {
	t.Parallel()
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	bad := fmt.Sprintf(strings.Join([]string{
		`{"type":"relation","id":"%[1]s-bad-1","relationType":"MEMBER_OF","from":"%[1]s-anna","to":"%[1]s-firm","share":10,"dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-bad-2","relationType":"OWNS","from":"%[1]s-anna","to":"%[1]s-firm","post":"owner","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-bad-3","relationType":"PAID","from":"%[1]s-firm","to":"%[1]s-ivan","currency":"USD","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"relation","id":"%[1]s-bad-4","relationType":"FAMILY_OF","from":"%[1]s-anna","to":"%[1]s-ivan","relationship":"AUNT","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
		`{"type":"entity","id":"%[1]s-bad-5","kind":"Person","name":"Bad","rank":"colonel","dataset":"%[1]s","sourceIds":["%[1]s-src"]}`,
	}, "\n"), ds)
	file := relationPropertyFile(ds) + bad
	b, err := dataset.Read(strings.NewReader(file))
	var lines *dataset.LinesError
	if !errors.As(err, &lines) {
		t.Fatalf("Read: %v, want bad lines", err)
	}
	got := lineErrors(lines)
	want := []string{
		"line 13: a relation of type MEMBER_OF has no share: only OWNS relations carry it",
		"line 14: a relation of type OWNS has no post: only HELD_POSITION, COMMANDS or DIRECTOR_OF relations carry it",
		"line 15: currency USD without an amount: give the amount it counts",
		`line 16: unknown family relationship "AUNT" (one of PARENT, CHILD, SIBLING, SPOUSE, PARTNER, GRANDPARENT, GRANDCHILD, UNCLE_OR_AUNT, NEPHEW_OR_NIECE, COUSIN, IN_LAW, OTHER)`,
		"line 17: an entity has none of a relation's properties ([share amount currency relationship post rank])",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bad lines (-want +got):\n%s", diff)
	}
	if casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("code %s, want BAD_USER_INPUT", casegraph.ErrorCode(err))
	}
	if _, err := dataset.Import(ctx, b, store, dataset.Options{}); err == nil {
		t.Fatal("a file with bad lines imported")
	}
	if snap := cyphertest.Snapshot(t, store, ds); len(snap) != 0 {
		t.Errorf("a refused file wrote %d records", len(snap))
	}
}

// TestRelationPropertiesFtMRoundTrip: the relations of every type that
// carries type-specific properties, exported from Neo4j as FtM, pass
// followthemoney's checks, and read back into a new dataset they are the
// same relations, properties included.
func TestRelationPropertiesFtMRoundTrip(t *testing.T) {
	t.Parallel()
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 2*time.Minute)
	defer cancel()
	b, err := dataset.Read(strings.NewReader(relationPropertyFile(ds)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, b, store, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	exported := ftmRoundTrip(t, store, ds)
	for _, want := range []string{`"percentage":["12.5"]`, `"amount":["2500000"]`, `"currency":["USD"]`, `"relationship":["nephew or niece"]`,
		`"role":["commands","post: commander, 4th Division","rank: major general"]`} {
		if !strings.Contains(exported, want) {
			t.Errorf("the FtM export lacks %s:\n%s", want, exported)
		}
	}
}
