package graph

// Glue for timelines: items out, the request's loaders primed with their
// events and sources.

import (
	"context"
	"slices"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// partialDateOf is an optional date argument (zero when absent); the
// PartialDate scalar has validated it.
func partialDateOf(d *model.PartialDate) casegraph.PartialDate {
	if d == nil {
		return casegraph.PartialDate{}
	}
	return casegraph.MustPartialDate(string(*d))
}

// datasetTimelineQueryOf is the request of datasetTimeline:
// casegraph.NewDatasetTimelineRequest's default, and what the client gave.
func datasetTimelineQueryOf(datasets []string, from, to model.PartialDate, first *int) casegraph.DatasetTimelineRequest {
	q := casegraph.NewDatasetTimelineRequest(datasets, partialDateOf(&from), partialDateOf(&to))
	given(&q.First, first)
	return q
}

// timelineItems turns ordered timeline items into their GraphQL form, and
// primes the request's loaders with the events, the relations' ends and
// the sources they cite (refs), which the statement read with them.
func timelineItems(ctx context.Context, items []casegraph.TimelineItem, refs casegraph.TimelineRefs) []model.TimelineItem {
	out := make([]model.TimelineItem, len(items))
	events := slices.Clip(refs.Ends)
	for i, it := range items {
		out[i] = model.TimelineItem{Start: datePtr(it.Start.String()), End: datePtr(it.End.String())}
		if it.Event != nil {
			events = append(events, *it.Event)
			out[i].Event = toEntity(*it.Event).(*model.Event)
		} else {
			out[i].Relation = toRelation(*it.Relation)
		}
	}
	loaders.Prime(ctx, events, refs.Sources)
	return out
}
