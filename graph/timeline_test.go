package graph_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher/cyphertest"
	"github.com/casegraph/casegraph/server"
	"github.com/casegraph/casegraph/server/servertest"
)

const datasetTimelineQuery = `query($ds: [String!]!, $from: PartialDate!, $to: PartialDate!, $first: Int) {
	datasetTimeline(datasets: $ds, from: $from, to: $to, first: $first) {
		truncated items { start end event { id dataset } relation { id type } } } }`

// TestDatasetTimeline: a period of the seed's history across its dataset,
// every item in the period and in date order, cut at first with truncated
// set, the caller's datasets only, and bad periods refused.
func TestDatasetTimeline(t *testing.T) {
	t.Parallel()
	// Its statement, two index reads a relation type, is the first of its
	// kind and takes seconds to plan (more under CI's load): a budget of
	// minutes, as the protected-person tests have.
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.RequestTimeout = 3 * time.Minute }})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	s := seedPaths{h: h, ds: ds, id: id}
	type item struct {
		start, end, label string
	}
	read := func(token string, vars map[string]any) ([]item, bool) {
		t.Helper()
		res := s.h.PostAs(token, datasetTimelineQuery, vars)
		if len(res.Errors) > 0 {
			t.Fatalf("datasetTimeline %v: %s", vars, res.Raw)
		}
		var out []item
		for _, x := range field(res, "datasetTimeline", "items").([]any) {
			it := x.(map[string]any)
			var got item
			got.start, _ = it["start"].(string)
			got.end, _ = it["end"].(string)
			if ev, ok := it["event"].(map[string]any); ok {
				got.label = strings.TrimPrefix(ev["id"].(string), s.ds+":")
			} else {
				got.label = it["relation"].(map[string]any)["type"].(string)
			}
			out = append(out, got)
		}
		return out, field(res, "datasetTimeline", "truncated").(bool)
	}
	vars := func(from, to string, first int) map[string]any {
		return map[string]any{"ds": []string{s.ds}, "from": from, "to": to, "first": first}
	}

	from, to := casegraph.MustPartialDate("2002"), casegraph.MustPartialDate("2006")
	items, truncated := read(s.h.Token, vars("2002", "2006", 100))
	if truncated || len(items) == 0 {
		t.Fatalf("2002 to 2006: %d items, truncated %v", len(items), truncated)
	}
	var labels []string
	var prev casegraph.PartialDate
	for _, it := range items {
		labels = append(labels, it.label)
		start, _ := casegraph.ParsePartialDate(it.start) // "" is the zero date
		end, _ := casegraph.ParsePartialDate(it.end)
		date := start
		if date.IsZero() {
			date = end
		}
		if !prev.IsZero() && date.Compare(prev) < 0 {
			t.Errorf("%s (%s) comes after %s: not in date order", it.label, date, prev)
		}
		prev = date
		if !start.IsZero() && start.Earliest() > to.Latest() {
			t.Errorf("%s starts %s, after the period", it.label, start)
		}
		if !end.IsZero() && end.Latest() < from.Earliest() {
			t.Errorf("%s ends %s, before the period", it.label, end)
		}
	}
	if !strings.Contains(strings.Join(labels, " "), "milosevic-prosecution") {
		t.Errorf("2002 to 2006 lacks the Milošević prosecution: %v", labels)
	}

	// first cuts the earliest items, and says there were more.
	two, truncated := read(s.h.Token, vars("2002", "2006", 2))
	if len(two) != 2 || !truncated || two[0] != items[0] || two[1] != items[1] {
		t.Errorf("first 2: got %v (truncated %v), want %v with truncated", two, truncated, items[:2])
	}

	// A reader of another dataset sees nothing of this one: not an error.
	other := s.h.Key(casegraph.NewAPIKey{Name: "other", Role: casegraph.RoleReader, Datasets: []string{s.ds + "-other"}})
	if got, _ := read(other, vars("2002", "2006", 100)); len(got) != 0 {
		t.Errorf("a reader of another dataset sees %d items", len(got))
	}

	for name, v := range map[string]map[string]any{
		"no dataset":     {"ds": []string{}, "from": "2002", "to": "2006"},
		"to before from": vars("2006", "2002", 10),
		"first 0":        vars("2002", "2006", 0),
		"first 501":      vars("2002", "2006", 501),
		"bad dataset":    {"ds": []string{"a b\u0000"}, "from": "2002", "to": "2006"},
		"not a date":     {"ds": []string{s.ds}, "from": "2002-13", "to": "2006"},
		"period missing": {"ds": []string{s.ds}, "from": "2002"},
	} {
		if res := s.h.Post(datasetTimelineQuery, v); res.Code() != "BAD_USER_INPUT" {
			t.Errorf("%s: got %s, want BAD_USER_INPUT", name, truncate(res.Raw))
		}
	}
}

// TestTimelineRefsInOneRoundTrip: a timeline's relations with both ends
// and their sources, and its events with theirs, come in the one round
// trip of the timeline's statement, for a cleared and an uncleared
// caller; and each end and source is what the caller reads of it by id
// (nodes, through the loaders), protected people redacted for the
// uncleared one (whose relations with a hidden end have no id to be read
// by).
func TestTimelineRefsInOneRoundTrip(t *testing.T) {
	t.Parallel()
	h := servertest.New(t, servertest.Options{Config: func(c *server.Config) { c.RequestTimeout = 3 * time.Minute }})
	ds, id := cyphertest.LoadSeed(t, h.Store)
	const end = `id kind name redacted`
	const refs = `relation { id from { ` + end + ` } to { ` + end + ` } sources { id title } } event { id sources { id title } }`
	queries := map[string]struct {
		query string
		vars  map[string]any
		items []string
	}{
		"datasetTimeline": {`query($ds: [String!]!) { datasetTimeline(datasets: $ds, from: "2011", to: "2015", first: 50) { items { ` + refs + ` } } }`,
			map[string]any{"ds": []string{ds}}, []string{"datasetTimeline", "items"}},
		"timeline": {`query($id: ID!) { timeline(id: $id) { ` + refs + ` } }`,
			map[string]any{"id": id("syrian-military-police")}, []string{"timeline"}},
	}
	reader := h.Key(casegraph.NewAPIKey{Name: "uncleared reader", Role: casegraph.RoleReader, Datasets: []string{ds}})
	for name, q := range queries {
		for caller, token := range map[string]string{"cleared admin": h.Token, "uncleared reader": reader} {
			h.PostAs(token, `{ __typename }`, nil) // the key's first use reads it
			before := h.Store.RoundTrips()
			res := h.PostAs(token, q.query, q.vars)
			if len(res.Errors) > 0 {
				t.Fatalf("%s as %s: %s", name, caller, res.Raw)
			}
			if trips := h.Store.RoundTrips() - before; trips != 1 {
				t.Errorf("%s as %s: %d round trips for items with their ends and sources, want 1", name, caller, trips)
			}
			// What each end and cited element is, read by id.
			want := map[string]any{}
			var ids []string
			redacted := 0
			for _, x := range field(res, q.items...).([]any) {
				it := x.(map[string]any)
				if r, ok := it["relation"].(map[string]any); ok {
					for _, e := range []string{"from", "to"} {
						end := r[e].(map[string]any)
						want[end["id"].(string)] = end
						if end["redacted"].(bool) {
							redacted++
						}
					}
					// One with a hidden end has no id to be read by.
					if !r["from"].(map[string]any)["redacted"].(bool) && !r["to"].(map[string]any)["redacted"].(bool) {
						want[r["id"].(string)] = map[string]any{"id": r["id"], "sources": r["sources"]}
					}
				} else {
					ev := it["event"].(map[string]any)
					want[ev["id"].(string)] = map[string]any{"id": ev["id"], "sources": ev["sources"]}
				}
			}
			for k := range want {
				ids = append(ids, k)
			}
			if len(ids) < 2 {
				t.Fatalf("%s as %s: only %d items and ends: %s", name, caller, len(ids), res.Raw)
			}
			if (caller == "uncleared reader") != (redacted > 0) {
				t.Errorf("%s as %s: %d redacted ends", name, caller, redacted)
			}
			byID := h.PostAs(token, `query($ids: [ID!]!) { nodes(ids: $ids) { id
				... on Entity { kind name redacted }
				... on Relation { sources { id title } }
				... on Event { sources { id title } } } }`, map[string]any{"ids": ids})
			if len(byID.Errors) > 0 {
				t.Fatalf("nodes as %s: %s", caller, byID.Raw)
			}
			for i, n := range field(byID, "nodes").([]any) {
				got, _ := n.(map[string]any)
				w := want[ids[i]].(map[string]any)
				for k, v := range w {
					if !reflect.DeepEqual(got[k], v) {
						t.Errorf("%s as %s: %s's %s is %v in the timeline, %v by id", name, caller, ids[i], k, v, got[k])
					}
				}
			}
		}
	}
}
