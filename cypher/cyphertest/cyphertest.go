// Package cyphertest connects tests to the real Neo4j that `make test`
// starts, and gives each test a dataset of its own that it cleans up. A
// Neo4j that cannot be reached fails the test: it never skips, except
// under `make test-unit`, which runs only the tests that need no database
// and names the others as skipped.
package cyphertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/dataset"
)

var (
	driverOnce sync.Once
	driver     neo4j.DriverWithContext
	driverErr  error
)

// URI is the Bolt address tests use: NEO4J_URI, or the local default.
func URI() string {
	if u := os.Getenv("NEO4J_URI"); u != "" {
		return u
	}
	return "bolt://127.0.0.1:7687"
}

// Auth is how tests log in to Neo4j: NEO4J_USER and NEO4J_PASSWORD, or
// no authentication when NEO4J_USER is not set.
func Auth() neo4j.AuthToken {
	if u := os.Getenv("NEO4J_USER"); u != "" {
		return neo4j.BasicAuth(u, os.Getenv("NEO4J_PASSWORD"), "")
	}
	return neo4j.NoAuth()
}

// UnitEnv is the environment variable `make test-unit` sets: the tests
// that need Neo4j say so and skip, and every other test runs. Nothing else
// sets it, so under `make test` and in CI a Neo4j that cannot be reached
// fails the test.
const UnitEnv = "CASEGRAPH_TEST_UNIT"

// Driver returns the test process's one driver, connected and with the
// schema applied, or fails the test. Under `make test-unit` (UnitEnv set)
// it skips the test instead, saying that it needs Neo4j.
func Driver(t testing.TB) neo4j.DriverWithContext {
	t.Helper()
	if os.Getenv(UnitEnv) != "" {
		t.Skipf("needs Neo4j (%s is set: make test-unit); make test runs it", UnitEnv)
	}
	driverOnce.Do(func() {
		driver, driverErr = neo4j.NewDriverWithContext(URI(), Auth(), cypher.DriverConfig)
		if driverErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
		defer cancel()
		if driverErr = driver.VerifyConnectivity(ctx); driverErr != nil {
			return
		}
		var s *cypher.Store
		if s, driverErr = cypher.NewStore(driver, cypher.Options{}); driverErr != nil {
			return
		}
		_, driverErr = s.Migrate(ctx)
	})
	if driverErr != nil {
		t.Fatalf("Neo4j at %s is not usable (start it with `make neo4j-up`): %v", URI(), driverErr)
	}
	return driver
}

// Store returns a new Store over the shared driver, with its own round-trip
// count, or fails the test.
func Store(t testing.TB, opts cypher.Options) *cypher.Store {
	t.Helper()
	s, err := cypher.NewStore(Driver(t), opts)
	if err != nil {
		t.Fatalf("NewStore: %v", err)
	}
	return s
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9]+`)

// Dataset returns a dataset name unique to this test and removes the
// dataset's data when the test ends.
func Dataset(t testing.TB) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := strings.Trim(unsafe.ReplaceAllString(t.Name(), "-"), "-")
	if len(name) > 60 {
		name = name[:60]
	}
	ds := "test-" + strings.ToLower(name) + "-" + hex.EncodeToString(b)
	s := Store(t, cypher.Options{})
	t.Cleanup(func() {
		// A benchmark's dataset (600k rows on a 2-core machine) takes more
		// than a minute to delete; a test's is gone in well under a second.
		ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 10*time.Minute)
		defer cancel()
		if _, err := s.DeleteDataset(ctx, ds); err != nil {
			t.Errorf("clean up dataset %s: %v", ds, err)
		}
	})
	return ds
}

// Snapshot returns everything a dataset holds, as sorted lines of JSON, with
// versions and update times: equal snapshots mean nothing was written.
func Snapshot(t testing.TB, s *cypher.Store, ds string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	var lines []string
	add := func(v any) error {
		b, err := json.Marshal(v)
		lines = append(lines, string(b))
		return err
	}
	err := s.Export(ctx, []string{ds}, cypher.Exporter{
		Source:   func(src casegraph.Source) error { return add(src) },
		Entity:   func(e casegraph.Entity) error { return add(e) },
		Relation: func(r casegraph.Relation) error { return add(r) },
	})
	if err != nil {
		t.Fatalf("snapshot of %s: %v", ds, err)
	}
	return lines
}

// LoadSeed loads the seed dataset into a dataset of the test's own, every
// id prefixed with the dataset's name and a colon. It returns the dataset
// and a function from a seed id to its id in the test.
func LoadSeed(t testing.TB, s *cypher.Store) (string, func(string) string) {
	t.Helper()
	return load(t, s, dataset.Seed())
}

// LoadForce loads the demonstration force (demo-force) as LoadSeed loads the seed.
func LoadForce(t testing.TB, s *cypher.Store) (string, func(string) string) {
	t.Helper()
	return load(t, s, dataset.DemoForce())
}

func load(t testing.TB, s *cypher.Store, r io.Reader) (string, func(string) string) {
	t.Helper()
	ds := Dataset(t)
	id := func(seedID string) string { return ds + ":" + seedID }
	b, err := dataset.Read(r)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(in []string) []string {
		out := make([]string, len(in))
		for i, v := range in {
			out[i] = id(v)
		}
		return out
	}
	for i := range b.Sources {
		b.Sources[i].ID, b.Sources[i].Dataset = id(b.Sources[i].ID), ds
	}
	cited := func(cs []casegraph.Citation) {
		for i := range cs {
			cs[i].SourceID = id(cs[i].SourceID)
		}
	}
	for i := range b.Entities {
		e := &b.Entities[i]
		e.ID, e.Dataset, e.SourceIDs = id(e.ID), ds, ids(e.SourceIDs)
		cited(e.Citations)
	}
	for i := range b.Relations {
		r := &b.Relations[i]
		r.ID, r.FromID, r.ToID, r.Dataset, r.SourceIDs = id(r.ID), id(r.FromID), id(r.ToID), ds, ids(r.SourceIDs)
		cited(r.Citations)
	}
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	if _, err := dataset.Import(ctx, b, s, dataset.Options{}); err != nil {
		t.Fatalf("load the seed into %s: %v", ds, err)
	}
	return ds, id
}

// CheckDegrees fails the test for every entity of the datasets whose degree
// property is not the number of its relations.
func CheckDegrees(t testing.TB, s *cypher.Store, datasets ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), time.Minute)
	defer cancel()
	wrong, err := s.WrongDegrees(ctx, datasets)
	if err != nil {
		t.Fatalf("WrongDegrees: %v", err)
	}
	for _, w := range wrong {
		degree := "none"
		if w.Degree != nil {
			degree = strconv.FormatInt(*w.Degree, 10)
		}
		t.Errorf("entity %s: degree %s, but %d relations", w.ID, degree, w.Counted)
	}
}

// NormalizedNDJSON is each line of a data file as JSON of its own, sorted:
// files that hold the same records give the same lines, whatever their
// order and spacing.
func NormalizedNDJSON(t testing.TB, ndjson string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(ndjson), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}
