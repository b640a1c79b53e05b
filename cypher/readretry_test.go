package cypher_test

import (
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// dropAll breaks every connection the proxy carries, both sides, as a
// restarted database or a load balancer's idle timeout would.
func (c *commitCutter) dropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.closed {
		conn.Close()
	}
	c.closed = nil
}

// TestReadTriedAgainOnANewConnection: reads run as auto-commit
// transactions, which the driver does not try again by itself; a read
// whose pooled connection has died must still answer, on a new one, as it
// did inside the driver's transaction functions.
func TestReadTriedAgainOnANewConnection(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	ds := cyphertest.Dataset(t)
	direct := cyphertest.Store(t, cypher.Options{})
	src := casegraph.Source{ID: ds + "-src", Title: "A source", Dataset: ds}
	e := casegraph.Entity{ID: ds + "-kept", Kind: casegraph.KindPerson, Name: "Kept", Dataset: ds, SourceIDs: []string{src.ID}}
	if _, err := direct.WriteBatch(ctx, []casegraph.Source{src}, []casegraph.Entity{e}, nil); err != nil {
		t.Fatal(err)
	}

	proxy, s := proxiedStore(t)

	for round := range 3 {
		got, err := s.Entity(ctx, e.ID)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got.Name != e.Name {
			t.Fatalf("round %d: read %q, want %q", round, got.Name, e.Name)
		}
		proxy.dropAll() // the pooled connection is dead for the next round
	}
}
