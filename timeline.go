package casegraph

import (
	"cmp"
	"slices"
)

// TimelineItem is a dated thing in an entity's history: an event it is
// related to (or is), or one of its relations.
type TimelineItem struct {
	Start, End PartialDate // either may be zero, not both
	Event      *Entity
	Relation   *Relation
}

// Timeline orders an entity's dated relations and events for a timeline.
// The rule:
//   - an item's date is its start, or its end when it has no start; items
//     with neither are left out (a timeline shows what it can place);
//   - items go in the order of PartialDate.Compare on that date: by first
//     possible day, the less precise first, so 2011 comes before 2011-03,
//     which comes before 2011-03-15; then events before relations, then by
//     id;
//   - with from or to, items whose days do not meet [from, to] are left
//     out; a relation without an end goes on, an event without one took
//     its start's day (or month, or year).
func Timeline(relations []Relation, events []Entity, from, to PartialDate) []TimelineItem {
	var items []TimelineItem
	add := func(start, end string, it TimelineItem) {
		it.Start, _ = ParsePartialDate(start)
		it.End, _ = ParsePartialDate(end)
		if it.Start.IsZero() && it.End.IsZero() {
			return
		}
		// The days the item covers: a relation without an end goes on; an
		// event without one took its start's day (or month, or year).
		lo, hi := "", ""
		if !it.Start.IsZero() {
			lo = it.Start.Earliest()
		}
		switch {
		case !it.End.IsZero():
			hi = it.End.Latest()
		case it.Event != nil:
			hi = it.Start.Latest()
		}
		if !from.IsZero() && hi != "" && hi < from.Earliest() {
			return
		}
		if !to.IsZero() && lo != "" && lo > to.Latest() {
			return
		}
		items = append(items, it)
	}
	for i := range relations {
		r := &relations[i]
		add(r.StartDate, r.EndDate, TimelineItem{Relation: r})
	}
	for i := range events {
		e := &events[i]
		add(e.StartDate, e.EndDate, TimelineItem{Event: e})
	}
	slices.SortStableFunc(items, func(a, b TimelineItem) int {
		return cmp.Or(
			a.date().Compare(b.date()),
			cmp.Compare(a.rank(), b.rank()),
			cmp.Compare(a.id(), b.id()),
		)
	})
	return items
}

func (it TimelineItem) date() PartialDate {
	if !it.Start.IsZero() {
		return it.Start
	}
	return it.End
}

func (it TimelineItem) rank() int {
	if it.Event != nil {
		return 0
	}
	return 1
}

func (it TimelineItem) id() string {
	if it.Event != nil {
		return it.Event.ID
	}
	return it.Relation.ID
}
