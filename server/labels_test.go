package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/casegraph/casegraph/server"
)

// TestOperationLabelsAreEarned: an operation's name becomes a metrics label
// only when the operation passed validation and every limit, so requests
// anyone can make up take none of the bounded labels.
func TestOperationLabelsAreEarned(t *testing.T) {
	t.Parallel()
	h := newEdge(t, func(c *server.Config) { c.MaxDepth = 2 })
	for i := range 300 {
		h.Post(fmt.Sprintf(`query Junk%d { nope }`, i), nil)                                  // fails validation
		h.Post(fmt.Sprintf(`query Deep%d { entity(id: "x") { id { x } } }`, i), nil)          // fails validation too
		h.Post(fmt.Sprintf(`query TooDeep%d { entity(id: "x") { sources { id } } }`, i), nil) // over the depth limit
	}
	h.Post(`query Good { __typename }`, nil)
	metrics := h.Get("/metrics").Raw
	for _, junk := range []string{`operation="Junk`, `operation="Deep`, `operation="TooDeep`} {
		if strings.Contains(metrics, junk) {
			t.Errorf("/metrics has a label %s...", junk)
		}
	}
	for _, want := range []string{`operation="Good",route="/graphql"`, `operation="other",route="/graphql"`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
