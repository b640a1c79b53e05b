package graph_test

// entities(): its order and filters.

import (
	"slices"
	"strings"
	"testing"
)

const listQuery = `query L($f: EntityFilter, $o: EntityOrder, $first: Int, $after: String) {
  entities(filter: $f, orderBy: $o, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { id name relations { totalCount } } }
  }
}`

// list pages through a whole list, 4 at a time, and returns the seed ids.
func (s seedPaths) list(t *testing.T, filter, order map[string]any) []string {
	t.Helper()
	f := map[string]any{"datasets": []string{s.ds}}
	for k, v := range filter {
		f[k] = v
	}
	var ids []string
	var after any
	for range 100 {
		res := s.h.MustPost(listQuery, map[string]any{"f": f, "o": order, "first": 4, "after": after})
		for _, e := range field(res, "entities", "edges").([]any) {
			ids = append(ids, strings.TrimPrefix(e.(map[string]any)["node"].(map[string]any)["id"].(string), s.ds+":"))
		}
		if field(res, "entities", "pageInfo", "hasNextPage") != true {
			return ids
		}
		after = field(res, "entities", "pageInfo", "endCursor")
	}
	t.Fatal("more than 100 pages")
	return nil
}

func TestEntityListsSortAndFilter(t *testing.T) {
	t.Parallel()
	s := newSeedPaths(t)

	byName := s.list(t, map[string]any{"kinds": []string{"PLACE"}}, map[string]any{"field": "NAME"})
	want := []string{"geneva", "london", "qatar", "sierra-leone", "syria", "the-hague"}
	if !slices.Equal(byName, want) {
		t.Errorf("places by name: %v, want %v", byName, want)
	}
	desc := s.list(t, map[string]any{"kinds": []string{"PLACE"}}, map[string]any{"field": "NAME", "direction": "DESC"})
	slices.Reverse(want)
	if !slices.Equal(desc, want) {
		t.Errorf("places by name, descending: %v, want %v", desc, want)
	}

	byDegree := s.list(t, nil, map[string]any{"field": "DEGREE", "direction": "DESC"})
	if len(byDegree) != 30 || byDegree[0] != "caesar-report" {
		t.Errorf("by degree: %d entities, first %v; want 30, the report first", len(byDegree), byDegree[:1])
	}
	seen := map[string]bool{}
	for _, id := range byDegree {
		if seen[id] {
			t.Errorf("%s twice across pages", id)
		}
		seen[id] = true
	}

	byUpdate := s.list(t, map[string]any{"kinds": []string{"EVENT"}}, map[string]any{"field": "UPDATED_AT", "direction": "DESC"})
	if len(byUpdate) != 4 {
		t.Errorf("events by update time: %v", byUpdate)
	}

	// Events whose dates meet 2012, and documents published in it: the
	// killings (2011-03 to 2013-08) and the Milošević trial (2002 to 2006)
	// is out; the civil war ended in 2002.
	in2012 := s.list(t, map[string]any{"dateFrom": "2012", "dateTo": "2012"}, nil)
	if !slices.Equal(in2012, []string{"syria-detainee-killings"}) {
		t.Errorf("dated in 2012: %v", in2012)
	}
	jan2014 := s.list(t, map[string]any{"dateFrom": "2014-01", "dateTo": "2014-01-31", "kinds": []string{"DOCUMENT", "EVENT"}}, nil)
	if !slices.Equal(jan2014, []string{"caesar-photographs", "caesar-report", "caesar-report-article", "geneva-ii-conference"}) {
		t.Errorf("dated in January 2014: %v", jan2014)
	}

	funders := s.list(t, map[string]any{"hasRelation": []string{"FUNDS", "ARMS"}}, nil)
	if !slices.Equal(funders, []string{"qatar-government", "syrian-rebel-groups"}) {
		t.Errorf("with FUNDS or ARMS relations: %v", funders)
	}
	named := s.list(t, map[string]any{"nameContains": "MILOSEVIC"}, nil)
	if !slices.Equal(named, []string{"milosevic-prosecution", "slobodan-milosevic"}) {
		t.Errorf("name contains MILOSEVIC: %v", named)
	}

	res := s.h.Post(listQuery, map[string]any{"f": map[string]any{"dateFrom": "2014", "dateTo": "2013"}})
	if res.Code() != "BAD_USER_INPUT" {
		t.Errorf("dateTo before dateFrom: %s", truncate(res.Raw))
	}
	first := s.h.MustPost(listQuery, map[string]any{"f": map[string]any{"datasets": []string{s.ds}}, "o": map[string]any{"field": "NAME"}, "first": 2})
	cursor := field(first, "entities", "pageInfo", "endCursor")
	other := s.h.Post(listQuery, map[string]any{"f": map[string]any{"datasets": []string{s.ds}}, "o": map[string]any{"field": "DEGREE"}, "after": cursor})
	if other.Code() != "BAD_USER_INPUT" {
		t.Errorf("a cursor of another order: %s", truncate(other.Raw))
	}
}
