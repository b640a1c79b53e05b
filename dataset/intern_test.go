package dataset_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/casegraph/casegraph/dataset"
)

// TestReadHoldsRepeatedStringsOnce: the rows of a file share one copy of
// what they repeat (a dataset, an end, a source cited, a date), as the
// first row that gave it holds it.
func TestReadHoldsRepeatedStringsOnce(t *testing.T) {
	lines := []string{
		`{"type":"source","id":"d:s","title":"A source","dataset":"d"}`,
		`{"type":"entity","id":"d:a","kind":"Person","name":"A","dataset":"d","sourceIds":["d:s"]}`,
		`{"type":"entity","id":"d:b","kind":"Place","name":"B","dataset":"d","sourceIds":["d:s"]}`,
		`{"type":"relation","id":"d:r1","relationType":"LOCATED_IN","from":"d:a","to":"d:b","startDate":"2013","dataset":"d","sourceIds":["d:s"]}`,
		`{"type":"relation","id":"d:r2","relationType":"LOCATED_IN","from":"d:a","to":"d:b","startDate":"2013","dataset":"d","citations":[{"sourceId":"d:s","quote":"q"}]}`,
	}
	b, err := dataset.Read(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	same := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are two copies", what, x, y)
		}
	}
	r1, r2 := b.Relations[0], b.Relations[1]
	same("from", r1.FromID, b.Entities[0].ID)
	same("from", r2.FromID, b.Entities[0].ID)
	same("to", r2.ToID, b.Entities[1].ID)
	same("dataset", r2.Dataset, b.Sources[0].Dataset)
	same("dataset", b.Entities[1].Dataset, b.Sources[0].Dataset)
	same("source cited", r1.Citations[0].SourceID, b.Sources[0].ID)
	same("source cited", r2.Citations[0].SourceID, b.Sources[0].ID)
	same("source cited", b.Entities[0].SourceIDs[0], b.Sources[0].ID)
	same("start date", r1.StartDate, r2.StartDate)
}
