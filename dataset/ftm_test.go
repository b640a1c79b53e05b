package dataset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// ftmPython is the Python with the followthemoney package that `make
// ftm-deps` installs (CASEGRAPH_FTM_PYTHON to use another). Without it the
// test fails: FtM output nobody checked proves nothing.
func ftmPython(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CASEGRAPH_FTM_PYTHON"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", ".venv-ftm", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no followthemoney to check FtM with: run make ftm-deps (or set CASEGRAPH_FTM_PYTHON): %v", err)
	}
	return p
}

// checkWithFtM has the followthemoney package check every entity of an
// FtM export (schema, properties, values), and returns what it checked.
func checkWithFtM(t *testing.T, export []byte) string {
	t.Helper()
	cmd := exec.Command(ftmPython(t), filepath.Join("testdata", "ftm_check.py"))
	cmd.Stdin = bytes.NewReader(export)
	checked, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("followthemoney refuses the export: %v\n%s", err, checked)
	}
	return string(bytes.TrimSpace(checked))
}

// ftmByID is an FtM export's entities by id.
func ftmByID(t *testing.T, export string) map[string]dataset.FtMEntity {
	t.Helper()
	out := map[string]dataset.FtMEntity{}
	for _, line := range strings.Split(strings.TrimSpace(export), "\n") {
		var e dataset.FtMEntity
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		out[e.ID] = e
	}
	return out
}

// TestFtMExportValidates exports a copy of the seed as FtM and has the
// followthemoney package check every entity: schema, properties, values.
// The copy's ids hold ':' (the test dataset's prefix), which FtM ids may
// not: they are encoded, and every reference follows.
func TestFtMExportValidates(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, id := cyphertest.LoadSeed(t, store)
	var out bytes.Buffer
	w := dataset.NewFtMWriter(&out)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if err := store.Export(ctx, []string{ds}, cypher.Exporter{Source: w.Source, Entity: w.Entity, Relation: w.Relation}); err != nil {
		t.Fatal(err)
	}
	seed, err := dataset.Read(dataset.Seed())
	if err != nil {
		t.Fatal(err)
	}
	if w.Report.Entities != len(seed.Entities) || w.Report.Relations != len(seed.Relations) || w.Report.Sources != len(seed.Sources) {
		t.Errorf("report %+v, want the seed's %d entities, %d relations, %d sources", w.Report, len(seed.Entities), len(seed.Relations), len(seed.Sources))
	}

	t.Logf("followthemoney checked: %s", checkWithFtM(t, out.Bytes()))

	// Every entity and relation is there under its FtM id, and the links
	// point at entities of the export.
	byID := ftmByID(t, out.String())
	caesar, ok := byID[dataset.FtMID(id("caesar"))]
	if !ok || caesar.Schema != "Person" || caesar.Properties["name"][0] != "Caesar" {
		t.Errorf("Caesar: %+v", caesar)
	}
	authored := byID[dataset.FtMID(id("rel-001-desmond-de-silva-authored-caesar-report"))]
	if authored.Schema != "Documentation" || authored.Properties["entity"][0] != dataset.FtMID(id("desmond-de-silva")) ||
		authored.Properties["document"][0] != dataset.FtMID(id("caesar-report")) || authored.Properties["status"][0] != "reported" {
		t.Errorf("de Silva authored the report: %+v", authored)
	}
	for _, e := range byID {
		for _, prop := range []string{"entity", "document", "subject", "object", "member", "organization", "employee", "employer",
			"agent", "client", "director", "payer", "beneficiary", "person", "associate", "proof", "holder"} {
			for _, ref := range e.Properties[prop] {
				if _, ok := byID[ref]; !ok {
					t.Errorf("%s %s.%s points at %s, which the export lacks", e.ID, e.Schema, prop, ref)
				}
			}
		}
	}
}

func TestFtMID(t *testing.T) {
	for id, want := range map[string]string{
		"caesar":           "caesar",
		"rel-001.a":        "rel-001.a",
		"test-x:caesar":    "cg-x" + "746573742d783a636165736172",
		"under_score":      "cg-x" + "756e6465725f73636f7265",
		"cg-looks-encoded": "cg-x" + "63672d6c6f6f6b732d656e636f646564",
		"-dash-first":      "cg-x" + "2d646173682d6669727374",
	} {
		if got := dataset.FtMID(id); got != want {
			t.Errorf("FtMID(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestFtMRoundTrip: the seed exported as FtM and read back into a new
// dataset (ids prefixed) is the same graph: every source, entity and
// relation with every field, protection included (ftmRoundTrip).
func TestFtMRoundTrip(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds, _ := cyphertest.LoadSeed(t, store)
	out, _ := exportFtM(t, store, ds)
	checkFtMRoundTrip(t, store, ds, out)
}

// ftmRoundTrip exports a dataset as FtM, has followthemoney check it,
// reads it back into a new dataset (ids prefixed) and fails the test
// unless that is the same graph, every field of every record; it returns
// the FtM it wrote.
func ftmRoundTrip(t *testing.T, store *cypher.Store, ds string) string {
	t.Helper()
	out, _ := exportFtM(t, store, ds)
	exported := out.String()
	checkWithFtM(t, out.Bytes())
	checkFtMRoundTrip(t, store, ds, out)
	return exported
}

// exportFtM exports a dataset as FtM.
func exportFtM(t *testing.T, store *cypher.Store, ds string) (*bytes.Buffer, *dataset.FtMWriter) {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	var out bytes.Buffer
	w := dataset.NewFtMWriter(&out)
	if err := store.Export(ctx, []string{ds}, cypher.Exporter{Source: w.Source, Entity: w.Entity, Relation: w.Relation}); err != nil {
		t.Fatal(err)
	}
	return &out, w
}

// checkFtMRoundTrip reads an FtM export of ds back into a new dataset
// (ids prefixed) and checks that it is the same graph: every source,
// entity and relation with every field, as NDJSON records.
func checkFtMRoundTrip(t *testing.T, store *cypher.Store, ds string, out *bytes.Buffer) {
	t.Helper()
	back := cyphertest.Dataset(t)
	b, notes, err := dataset.ReadFtM(out, dataset.FtMReadOptions{Dataset: back, IDPrefix: "rt-"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		t.Errorf("a note on our own export: %s", n)
	}
	importBatch(t, store, b)
	if diff := cmp.Diff(records(t, store, ds, "", ds), records(t, store, back, "rt-", ds)); diff != "" {
		t.Errorf("the graph read back differs (-exported +read back):\n%s", diff)
	}
}

func importBatch(t *testing.T, store *cypher.Store, b dataset.Batch) {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, store, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
}

// records is a dataset as sorted NDJSON lines, its ids without prefix and
// its dataset named as.
func records(t *testing.T, store *cypher.Store, ds, prefix, as string) []string {
	t.Helper()
	var lines []string
	add := func(r dataset.Record) error {
		r.ID = strings.TrimPrefix(r.ID, prefix)
		r.From, r.To = strings.TrimPrefix(r.From, prefix), strings.TrimPrefix(r.To, prefix)
		for i, id := range r.SourceIDs {
			r.SourceIDs[i] = strings.TrimPrefix(id, prefix)
		}
		slices.Sort(r.SourceIDs)
		slices.Sort(r.Aliases)
		r.Dataset = as
		b, err := json.Marshal(r)
		lines = append(lines, string(b))
		return err
	}
	err := store.Export(casegraph.AsOperator(context.Background()), []string{ds}, cypher.Exporter{
		Source:   func(s casegraph.Source) error { return add(dataset.SourceRecord(s)) },
		Entity:   func(e casegraph.Entity) error { return add(dataset.EntityRecord(e)) },
		Relation: func(r casegraph.Relation) error { return add(dataset.RelationRecord(r)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return lines
}

// TestFtMFixture reads a hand-written FtM file with schemata Casegraph has
// no kind or type for: each is mapped (loosely, said so) or skipped, by
// line, and what is read imports.
func TestFtMFixture(t *testing.T) {
	store := cyphertest.Store(t, cypher.Options{})
	ds := cyphertest.Dataset(t)
	f, err := os.Open(filepath.Join("testdata", "ftm-fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, notes, err := dataset.ReadFtM(f, dataset.FtMReadOptions{Dataset: ds, IDPrefix: ds + ":"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range notes {
		got = append(got, n.String())
	}
	want := []string{
		`line 6: skipped: Vessel v-boat: no Casegraph kind or relation type for this schema`,
		`line 13: skipped: Ownership o-2: v-boat is not an entity of the file that was read`,
		`line 14: skipped: Sanction s-1: no Casegraph kind or relation type for this schema`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(b.Entities) != 8 || len(b.Relations) != 6 || len(b.Sources) != 1 {
		t.Fatalf("read %d entities, %d relations, %d sources; want 8, 6 and the import's source", len(b.Entities), len(b.Relations), len(b.Sources))
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, store, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	lines := records(t, store, ds, ds+":", ds)
	for _, want := range []string{
		`"id":"p-anna","kind":"Person","name":"Anna Novak","aliases":["A. Novak","Ana Novak"]`,
		`"id":"ev-meeting","kind":"Event","name":"Meeting in Zagreb"`,
		`"startDate":"2019-05-04","endDate":"2019-05-04"`,
		`"pageCount":12`,
		`"id":"u-1","relationType":"EMPLOYED_BY","from":"p-ivan","to":"gov","role":"driver"`,
		`"id":"x-1","relationType":"PAID"`, // an FtM Payment without a Casegraph label: its schema's default type
		// Ivan is Anna's brother: from is to's SIBLING, the word kept as the role.
		`"id":"f-1","relationType":"FAMILY_OF","from":"p-ivan","to":"p-anna","role":"brother","status":"REPORTED","relationship":"SIBLING"`,
		`"id":"o-1","relationType":"OWNS","from":"c-parent","to":"c-shell","status":"REPORTED","share":100`,
		`"status":"ALLEGED","confidence":0.4,"amount":5000000,`,
		`"status":"ALLEGED","confidence":0.4`,
		`"id":"d-1","relationType":"DOCUMENTS","from":"doc-leak","to":"c-shell"`,
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) }) {
			t.Errorf("no record with %s in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// TestFtMEveryRelationType: a relation of every type of the vocabulary,
// between entities of kinds it joins, with every type-specific property
// it carries, is exported as the FtM schema its row names (an UnknownLink
// when there is none, or when FtM's schema would not take its ends),
// followthemoney takes the export, and the reader gives back the same
// type, ends, role and properties. FUNDS is written twice, to an
// organization (a Payment) and to an event (an UnknownLink, its amount
// among the role's values).
func TestFtMEveryRelationType(t *testing.T) {
	var out bytes.Buffer
	w := dataset.NewFtMWriter(&out)
	const ds = "ftm-types"
	src := casegraph.Source{ID: "s", Title: "A source", Dataset: ds}
	if err := w.Source(src); err != nil {
		t.Fatal(err)
	}
	specs := casegraph.Vocabulary()
	written := map[string]bool{}
	entity := func(k casegraph.Kind, end string) string {
		id := strings.ToLower(string(k)) + "-" + end
		if !written[id] {
			written[id] = true
			if err := w.Entity(casegraph.Entity{ID: id, Kind: k, Name: string(k) + " " + end, Dataset: ds, SourceIDs: []string{src.ID}}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	share, amount := 12.5, 1234567.89
	all := casegraph.RelationAttributes{Share: &share, Amount: &amount, Currency: "EUR",
		Relationship: casegraph.FamilyUncleOrAunt, Post: "commander: 4th Division", Rank: "brigadier general"}
	want := map[string]casegraph.Relation{}
	write := func(r casegraph.Relation) {
		t.Helper()
		if err := r.Normalize(); err != nil {
			t.Fatalf("%s: %v", r.Type, err)
		}
		if err := w.Relation(r); err != nil {
			t.Fatalf("%s: %v", r.Type, err)
		}
		want[r.ID] = r
	}
	for _, spec := range specs {
		r := casegraph.Relation{ID: "r-" + strings.ToLower(string(spec.Type)), Type: spec.Type,
			FromID: entity(spec.FromKinds[0], "a"), ToID: entity(spec.ToKinds[0], "b"),
			Role: "a role", Status: casegraph.DefaultStatus, Dataset: ds, SourceIDs: []string{src.ID}}
		for _, p := range casegraph.RelationPropertyTable() { // those of all that the type carries
			if slices.Contains(spec.Properties, p.Name) {
				if err := p.Set(&r.RelationAttributes, p.Value(all)); err != nil {
					t.Fatal(err)
				}
			}
		}
		write(r)
		if spec.Type == "FUNDS" {
			r.ID, r.ToID = "r-funds-event", entity(casegraph.KindEvent, "b")
			write(r)
		}
	}

	checkWithFtM(t, out.Bytes())
	exported := ftmByID(t, out.String())
	for _, spec := range specs {
		got := exported[dataset.FtMID("r-"+strings.ToLower(string(spec.Type)))].Schema
		if spec.FtM.Schema != "" && got != spec.FtM.Schema && got != "UnknownLink" {
			t.Errorf("%s exported as %s, want %s", spec.Type, got, spec.FtM.Schema)
		}
		if spec.FtM.Schema == "" && got != "UnknownLink" {
			t.Errorf("%s exported as %s, want UnknownLink", spec.Type, got)
		}
	}

	b, notes, err := dataset.ReadFtM(&out, dataset.FtMReadOptions{Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		t.Errorf("a note on our own export: %s", n)
	}
	for _, r := range b.Relations {
		w, ok := want[r.ID]
		if !ok {
			t.Errorf("read back a relation %s never written", r.ID)
			continue
		}
		delete(want, r.ID)
		if r.Type != w.Type || r.FromID != w.FromID || r.ToID != w.ToID || r.Role != w.Role {
			t.Errorf("%s read back as %s %s -> %s (role %q), want %s -> %s (role %q)", w.Type, r.Type, r.FromID, r.ToID, r.Role, w.FromID, w.ToID, w.Role)
		}
		if diff := cmp.Diff(w.RelationAttributes, r.RelationAttributes); diff != "" {
			t.Errorf("%s's properties read back (-want +got):\n%s", r.ID, diff)
		}
	}
	for id := range want {
		t.Errorf("%s was not read back", id)
	}
}
