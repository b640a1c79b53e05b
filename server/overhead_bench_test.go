package server_test

import (
	"testing"

	"github.com/casegraph/casegraph/server/servertest"
)

// BenchmarkFixedOverhead: a query that touches no data, through the whole
// service over loopback HTTP: what every request costs before its work.
func BenchmarkFixedOverhead(b *testing.B) {
	h := servertest.New(b, servertest.Options{})
	for b.Loop() {
		if status, body := h.PostTimed(`query Q { __typename }`, nil); status != 200 {
			b.Fatalf("%d %s", status, body)
		}
	}
}
