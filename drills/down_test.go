//go:build drills

package drills

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// cheapQuery reads one seed entity anonymous callers may see: the
// cheapest request that reaches the database.
const cheapQuery = `{ entity(id: "desmond-de-silva") { id name } }`

const (
	// downAnswerBound: with Neo4j down, a query is answered
	// DATABASE_UNAVAILABLE within this, long before the request timeout
	// (15 s): the store lets the driver retry a refused connection for 1 s.
	downAnswerBound = 3 * time.Second
	// recoveryBound: once Neo4j is up, /readyz and queries work again
	// within this, without a restart of the service.
	recoveryBound = 60 * time.Second
)

// drillDownThenUp: the service starts while Neo4j is down; it is alive
// (/healthz 200), not ready (/readyz 503), and answers queries
// DATABASE_UNAVAILABLE at once; then Neo4j starts and the same process
// becomes ready and answers. It serves the shared instance before
// starting it, or an instance of its own when that one is already up.
func (e *env) drillDownThenUp(t *testing.T) {
	db, owner, shared := e.shared, e.parent, true
	if e.sharedUp {
		db, owner, shared = e.instance("down-then-up", e.basePort+1), t, false
	}
	if portOpen(db.addr()) {
		t.Fatalf("something listens on %s already: stop it or set DRILLS_BOLT_PORT", db.addr())
	}
	// The schema is applied by `casegraph migrate` once Neo4j is up, as
	// make run does, not by serve --migrate, whose backoff (up to 15 s
	// between pings, then up to 30 s between attempts) would be measured
	// instead of the service's recovery.
	srv := e.serve(t, db.uri(), "CASEGRAPH_ANONYMOUS=caesar-report")
	c := srv.client("", 30*time.Second)
	ctx := context.Background()

	if o := c.Get(ctx, "/healthz"); o.Status != http.StatusOK {
		t.Errorf("Neo4j down: /healthz: %s, want 200", o)
	}
	readyDown := c.Get(ctx, "/readyz")
	if readyDown.Status != http.StatusServiceUnavailable {
		t.Errorf("Neo4j down: /readyz: %s, want 503", readyDown)
	}
	var down Tally
	for range 5 {
		o := c.GraphQL(ctx, cheapQuery, nil, nil)
		down.Add(o)
		if o.Label() != "DATABASE_UNAVAILABLE" || o.Took > downAnswerBound {
			t.Errorf("Neo4j down: query: %s, want DATABASE_UNAVAILABLE within %s", o, downAnswerBound)
		}
	}

	start := time.Now()
	db.up(t, owner)
	neo4jStart := time.Since(start)
	if shared {
		// Up now, whatever this drill finds: the drills after it use it.
		e.sharedUp = true
		defer e.prepare(t, db)
	}
	start = time.Now()
	e.casegraph(t, db, "migrate")
	migrate := time.Since(start)
	upAt := time.Now()
	var readyAfter, queryAfter time.Duration
	var readyPolls, queryPolls Tally // what recovery looked like
	_, err := waitFor(ctx, recoveryBound, 100*time.Millisecond, func() error {
		if srv.hasExited() {
			return fmt.Errorf("casegraph serve exited: %v", srv.err)
		}
		var errs []error
		if readyAfter == 0 {
			o := c.Get(ctx, "/readyz")
			readyPolls.Add(o)
			if o.Status == http.StatusOK {
				readyAfter = time.Since(upAt)
			} else {
				errs = append(errs, fmt.Errorf("/readyz: %s", o))
			}
		}
		if queryAfter == 0 {
			o := c.GraphQL(ctx, cheapQuery, nil, nil)
			queryPolls.Add(o)
			if o.OK() {
				queryAfter = time.Since(upAt)
			} else {
				errs = append(errs, fmt.Errorf("query: %s", o))
			}
		}
		return errors.Join(errs...)
	})
	if err != nil {
		t.Errorf("Neo4j up and the schema applied for %s, the service has not recovered: %v", recoveryBound, err)
	}
	if srv.hasExited() {
		t.Errorf("casegraph serve exited: %v", srv.err)
	}
	lat := down.Latency()
	t.Logf("drill: down-then-up: readyz_down=%d down_query=%s %s neo4j_start_s=%.1f migrate_s=%.1f ready_after_migrate_s=%.2f query_after_migrate_s=%.2f restarts=0",
		readyDown.Status, down.Counts(), lat.Fields("down_query"), neo4jStart.Seconds(), migrate.Seconds(), readyAfter.Seconds(), queryAfter.Seconds())
	t.Logf("drill: down-then-up: recovery_readyz=%s recovery_query=%s", readyPolls.Counts(), queryPolls.Counts())
}
