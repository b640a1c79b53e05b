package watch

import (
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func changes(from, to int64, fieldBytes int) []casegraph.Change {
	var out []casegraph.Change
	for seq := from; seq <= to; seq++ {
		out = append(out, casegraph.Change{Seq: seq, Fields: []casegraph.FieldChange{{Field: "description", New: strings.Repeat("x", fieldBytes)}}})
	}
	return out
}

// TestGroupKeepsRecentChanges: a group keeps its last ringSize changes
// (and no more than ringBytes of them); a reader behind them is told to
// read the feed itself, one within them gets what follows its cursor.
func TestGroupKeepsRecentChanges(t *testing.T) {
	g := &group{wake: make(chan struct{})}
	g.advance(changes(1, 1500, 10), 1500)
	if len(g.recent) != ringSize || g.start != 1500-ringSize || g.head != 1500 {
		t.Fatalf("kept %d changes after %d up to %d; want %d after %d up to 1500", len(g.recent), g.start, g.head, ringSize, 1500-ringSize)
	}
	if _, _, held := g.since(100); held {
		t.Error("a cursor before the start: want it read from the feed")
	}
	found, _, held := g.since(1490)
	if !held || len(found) != 10 || found[0].Seq != 1491 {
		t.Errorf("after 1490: held %t, %d changes from %d; want 10 from 1491", held, len(found), found[0].Seq)
	}
	if found, _, held := g.since(1500); !held || len(found) != 0 {
		t.Errorf("at the head: held %t, %d changes; want none, held", held, len(found))
	}

	big := changes(1501, 1503, 3<<20) // 9 MiB in all
	g.advance(big, 1503)
	if g.bytes > ringBytes || len(g.recent) != 2 || g.start != 1501 {
		t.Errorf("after three changes of 3 MiB: %d bytes in %d changes after %d; want 2 after 1501, under %d bytes", g.bytes, len(g.recent), g.start, ringBytes)
	}
	var sum int
	for _, c := range g.recent {
		sum += size(c)
	}
	if sum != g.bytes {
		t.Errorf("bytes %d, but the changes kept hold %d", g.bytes, sum)
	}
}
