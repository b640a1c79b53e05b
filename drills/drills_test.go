//go:build drills

package drills

import "testing"

// TestDrills runs the drills in an order that lets them share one Neo4j:
// the first starts it (after serving without it), the last kills it.
// Each can run alone: go test -tags drills -run 'TestDrills/kill9' ./drills/
func TestDrills(t *testing.T) {
	e := newEnv(t)
	t.Run("down-then-up", e.drillDownThenUp)
	t.Run("alias-150", e.drillAlias150)
	t.Run("heavy-load", e.drillHeavyLoad)
	t.Run("delay-proxy", e.drillDelayProxy)
	t.Run("replicas", e.drillReplicas)
	t.Run("kill9-writers", e.drillKill9Writers)
}
