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

// TimelineRefs is what a timeline's items refer to, read in the same
// statement so that a client asking for them costs no further round trip:
// the sources its events and relations cite and the entities at its
// relations' ends, each as the caller may see it.
type TimelineRefs struct {
	Sources []Source
	Ends    []Entity
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

// TimelineRequest asks for one entity's dated relations and events, between
// From and To (either zero: open at that end).
type TimelineRequest struct {
	ID       string
	From, To PartialDate
}

// Validate checks the id and that the period, when it has both ends, is
// in order.
func (q TimelineRequest) Validate() error {
	if err := ValidateID("id", q.ID); err != nil {
		return err
	}
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Latest() < q.From.Earliest() {
		return Errorf(CodeBadUserInput, "to %s is before from %s", q.To, q.From)
	}
	return nil
}

// Limits and defaults of a dataset timeline.
const (
	DefaultDatasetTimeline = 200 // DatasetTimelineRequest.First when a client gives none
	MaxDatasetTimeline     = 500 // the most items a dataset timeline returns
)

// DatasetTimelineRequest asks what happened in a period across datasets:
// their dated events and relations whose days meet [From, To].
type DatasetTimelineRequest struct {
	Datasets []string // 1 to MaxFilterValues
	From, To PartialDate
	First    int // 1 to MaxDatasetTimeline
}

// NewDatasetTimelineRequest is the timeline of datasets in [from, to] with
// the default: the first DefaultDatasetTimeline items.
func NewDatasetTimelineRequest(datasets []string, from, to PartialDate) DatasetTimelineRequest {
	return DatasetTimelineRequest{Datasets: datasets, From: from, To: to, First: DefaultDatasetTimeline}
}

// Validate checks the datasets, that the period is given and in order, and
// the page size.
func (q DatasetTimelineRequest) Validate() error {
	if len(q.Datasets) == 0 {
		return Errorf(CodeBadUserInput, "datasets: name at least one")
	}
	if err := validateScope("", nil, q.Datasets); err != nil {
		return err
	}
	if q.From.IsZero() || q.To.IsZero() {
		return Errorf(CodeBadUserInput, "from and to are both needed: a dataset's timeline is read a period at a time")
	}
	if q.To.Latest() < q.From.Earliest() {
		return Errorf(CodeBadUserInput, "to %s is before from %s", q.To, q.From)
	}
	if q.First < 1 || q.First > MaxDatasetTimeline {
		return Errorf(CodeBadUserInput, "first must be between 1 and %d, not %d", MaxDatasetTimeline, q.First)
	}
	return nil
}
