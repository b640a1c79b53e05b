package cypher

// Timelines: an entity's dated relations and events, and a page of the
// dated events and relations of datasets.

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtTimeline        statement = "Timeline"
	stmtDatasetTimeline statement = "DatasetTimeline"
)

// TimelineLimit bounds the relations, and the events, a timeline reads.
const TimelineLimit = 2000

// Timeline returns an entity's dated relations and events between q.From
// and q.To (zero: open), ordered by casegraph.Timeline, and what they refer
// to: the sources they cite and the relations' ends. At most TimelineLimit
// relations and as many events are read; more is a BAD_USER_INPUT asking
// for a narrower range. An unknown id is NOT_FOUND. q must be valid.
func (s *Store) Timeline(ctx context.Context, q casegraph.TimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, error) {
	id, from, to := q.ID, q.From, q.To
	res, err := s.read(ctx, stmtTimeline, map[string]any{"id": id, "limit": int64(TimelineLimit), "limitPlusOne": int64(TimelineLimit + 1)})
	if err != nil {
		return nil, casegraph.TimelineRefs{}, err
	}
	if len(res.Records) == 0 {
		return nil, casegraph.TimelineRefs{}, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id)
	}
	rec := res.Records[0]
	if cut, _, err := neo4j.GetRecordValue[bool](rec, "truncated"); err != nil {
		return nil, casegraph.TimelineRefs{}, internalError("Timeline", err)
	} else if cut && from.IsZero() && to.IsZero() {
		return nil, casegraph.TimelineRefs{}, casegraph.Errorf(casegraph.CodeBadUserInput,
			"%q has more than %d dated relations or events: ask for a range with from and to", id, TimelineLimit)
	}
	items, refs, err := timelineFromRecord(rec, from, to)
	if err != nil {
		return nil, casegraph.TimelineRefs{}, internalError(stmtTimeline, err)
	}
	return items, refs, nil
}

// timelineFromRecord reads a timeline statement's relations, events,
// sources and relations' ends (the "timelineRefs" of shared.tmpl), and
// orders the items with casegraph.Timeline between from and to.
func timelineFromRecord(rec *neo4j.Record, from, to casegraph.PartialDate) ([]casegraph.TimelineItem, casegraph.TimelineRefs, error) {
	var refs casegraph.TimelineRefs
	relMaps, err := getMaps(rec, "relations")
	if err != nil {
		return nil, refs, err
	}
	eventMaps, err := getMaps(rec, "events")
	if err != nil {
		return nil, refs, err
	}
	events, relations, err := subgraphFromMaps(eventMaps, relMaps)
	if err != nil {
		return nil, refs, err
	}
	endMaps, err := getMaps(rec, "ends")
	if err != nil {
		return nil, refs, err
	}
	if refs.Ends, _, err = subgraphFromMaps(endMaps, nil); err != nil {
		return nil, refs, err
	}
	if refs.Sources, err = sourcesFromRecord(rec); err != nil {
		return nil, refs, err
	}
	return casegraph.Timeline(relations, events, from, to), refs, nil
}

// datasetTimelineParams are the parameters of DatasetTimeline's statement
// for q: the period's first and last days, its first year (endFloor: the
// least an end that the first day begins with can be), the page, and how
// many starts each relation type's first read takes to bound the others
// (probe: twice the page shared among the types, so that there is a
// bound when half of the types have as many relations in the period).
func datasetTimelineParams(q casegraph.DatasetTimelineRequest) map[string]any {
	earliest := q.From.Earliest()
	types := len(casegraph.RelationTypes())
	return map[string]any{
		"datasets": q.Datasets, "earliest": earliest, "latest": q.To.Latest(), "endFloor": earliest[:4],
		"limit": int64(q.First), "limitPlusOne": int64(q.First + 1),
		"probe": int64(2 * ((q.First + 1 + types - 1) / types)),
	}
}

// DatasetTimeline returns what happened in a period across datasets: the
// dated events and relations of q.Datasets the caller may read whose days
// meet [q.From, q.To], ordered by casegraph.Timeline, at most q.First of
// them (the earliest), whether there were more, and what they refer to
// (the sources they cite, the relations' ends). It runs in the heavy pool:
// its reads are many (two a relation type and dataset), if each is short.
func (s *Store) DatasetTimeline(ctx context.Context, q casegraph.DatasetTimelineRequest) ([]casegraph.TimelineItem, casegraph.TimelineRefs, bool, error) {
	res, err := s.readHeavy(ctx, stmtDatasetTimeline, datasetTimelineParams(q))
	if err != nil {
		return nil, casegraph.TimelineRefs{}, false, err
	}
	if len(res.Records) != 1 {
		return nil, casegraph.TimelineRefs{}, false, internalError(stmtDatasetTimeline, errNoRow)
	}
	rec := res.Records[0]
	cut, _, err := neo4j.GetRecordValue[bool](rec, "truncated")
	if err != nil {
		return nil, casegraph.TimelineRefs{}, false, internalError(stmtDatasetTimeline, err)
	}
	items, refs, err := timelineFromRecord(rec, q.From, q.To)
	if err != nil {
		return nil, casegraph.TimelineRefs{}, false, internalError(stmtDatasetTimeline, err)
	}
	if len(items) > q.First {
		items, cut = items[:q.First], true
	}
	return items, refs, cut, nil
}
