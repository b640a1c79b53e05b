package server_test

// The server over the database: reads over POST and GET, readiness and
// Cypher metrics, the database down then up.

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

type harness = servertest.Harness
type response = servertest.Response
type options = servertest.Options

func newHarness(t *testing.T, opts options) *harness {
	t.Helper()
	return servertest.New(t, opts)
}

func seedOne(t *testing.T, store *cypher.Store) (ds string, id string) {
	t.Helper()
	ds = cyphertest.Dataset(t)
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	src := casegraph.Source{ID: ds + "-src", Title: "The article", Dataset: ds}
	id = ds + "-caesar"
	_, err := store.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{{
		ID: id, Kind: casegraph.KindPerson, Name: "Caesar", Aliases: []string{"قيصر"},
		Dataset: ds, SourceIDs: []string{src.ID}, Attributes: casegraph.Attributes{Nationality: "SY"},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ds, id
}

func TestEntityOverPOSTAndGET(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	_, id := seedOne(t, h.Store)
	const q = `query One($id: ID!) { entity(id: $id) { id kind name aliases ... on Person { nationality } } }`

	post := h.Post(q, map[string]any{"id": id})
	vars, _ := json.Marshal(map[string]any{"id": id})
	get := h.Get("/graphql?query=" + url.QueryEscape(q) + "&variables=" + url.QueryEscape(string(vars)))
	for name, res := range map[string]response{"POST": post, "GET": get} {
		if res.Status != http.StatusOK || len(res.Errors) > 0 {
			t.Fatalf("%s: status %d, body %s", name, res.Status, res.Raw)
		}
		want := map[string]any{"id": id, "kind": "PERSON", "name": "Caesar", "aliases": []any{"قيصر"}, "nationality": "SY"}
		if diff := cmp.Diff(want, res.Data["entity"]); diff != "" {
			t.Errorf("%s: entity (-want +got):\n%s", name, diff)
		}
	}

	missing := h.Post(q, map[string]any{"id": "no-such-entity"})
	if missing.Data["entity"] != nil || len(missing.Errors) > 0 {
		t.Errorf("unknown id: got %s, want entity null and no error", missing.Raw)
	}
}

func aliases(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("a")
		b.WriteString(strings.Repeat("x", i%5))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(": entity(id: \"x\") { id name } ")
	}
	return b.String()
}

// TestReadyAndCypherMetrics: /readyz says ready over a database with its
// schema, and /metrics counts the Cypher round trips by statement (the
// edge's own shape is TestHealthAndMetricsShape's).
func TestReadyAndCypherMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t, options{})
	if res := h.Get("/readyz"); res.Status != http.StatusOK {
		t.Errorf("/readyz: %d %s", res.Status, res.Raw)
	}
	h.Post(`query Named { entity(id: "x") { id } }`, nil)
	res := h.Get("/metrics")
	for _, want := range []string{
		`casegraph_cypher_queries_total{query="ReadEntities"}`,
		`casegraph_http_requests_total{code="200",operation="Named",route="/graphql"}`,
	} {
		if !strings.Contains(res.Raw, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// gate is a TCP proxy to Neo4j that refuses connections until opened: a
// database that is down, then comes up.
type gate struct {
	ln   net.Listener
	open atomic.Bool
}

func newGate(t *testing.T, target string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !g.open.Load() {
				c.Close()
				continue
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go io.Copy(up, c)
				io.Copy(c, up)
			}()
		}
	}()
	return g
}

func TestDatabaseDownThenUp(t *testing.T) {
	t.Parallel()
	cyphertest.Driver(t) // the gate opens onto the test database: it must be up
	target := strings.TrimPrefix(strings.TrimPrefix(cyphertest.URI(), "bolt://"), "neo4j://")
	g := newGate(t, target)
	h := newHarness(t, options{Driver: driverTo(t, g.ln.Addr().String())})

	if res := h.Get("/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz while down: %d %s, want 503", res.Status, res.Raw)
	}
	start := time.Now()
	res := h.Post(`{ entity(id: "x") { id } }`, nil)
	took := time.Since(start)
	if res.Code() != "DATABASE_UNAVAILABLE" {
		t.Errorf("query while down: got %s, want DATABASE_UNAVAILABLE", res.Raw)
	}
	// Not a speed figure: the driver's own defaults would take 30 s here.
	if took > 5*time.Second {
		t.Errorf("DATABASE_UNAVAILABLE took %s, want under 5s", took)
	}

	g.open.Store(true)
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := h.Get("/readyz")
		if res.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz after the database came up: %d %s", res.Status, res.Raw)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if res := h.Post(`{ entity(id: "x") { id } }`, nil); len(res.Errors) > 0 {
		t.Errorf("query after the database came up: %s", res.Raw)
	}
}

// TestClosedPortIsUnavailable needs no database: the real store over a
// driver to a port where nothing listens.
func TestClosedPortIsUnavailable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	h := newHarness(t, options{Driver: driverTo(t, addr)})
	if res := h.Get("/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz: %d %s, want 503", res.Status, res.Raw)
	}
	start := time.Now()
	res := h.Post(`{ entity(id: "x") { id } }`, nil)
	if res.Code() != "DATABASE_UNAVAILABLE" || time.Since(start) > 5*time.Second {
		t.Errorf("got %s after %s, want DATABASE_UNAVAILABLE under 5s", res.Raw, time.Since(start))
	}
	if strings.Contains(strings.ToLower(res.Raw), "bolt") || strings.Contains(res.Raw, addr) {
		t.Errorf("driver details reach the client: %s", res.Raw)
	}
}

// driverTo is a driver for a Bolt server at addr, closed when the test ends.
func driverTo(t *testing.T, addr string) neo4j.DriverWithContext {
	t.Helper()
	driver, err := neo4j.NewDriverWithContext("bolt://"+addr, neo4j.NoAuth(), cypher.DriverConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { driver.Close(context.Background()) })
	return driver
}

// TestReadinessHasItsOwnConnection: /readyz asks its own checker (in
// `casegraph serve`, a driver with one connection of its own), so a store
// whose every call fails, as one whose pool clients have filled, does not
// flip it; and ready means a write commits.
func TestReadinessHasItsOwnConnection(t *testing.T) {
	t.Parallel()
	probe := cyphertest.Store(t, cypher.Options{})
	h := servertest.Edge(t, options{Config: func(c *server.Config) { c.Readiness = probe }})
	if res := h.Get("/readyz"); res.Status != http.StatusOK {
		t.Fatalf("/readyz with a refusing store and a working probe: %d %s", res.Status, res.Raw)
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("readiness asked the store: %v", calls)
	}
}
