package cypher

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (queries/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtTimeline statement = "Timeline"
)

// TimelineLimit bounds the relations, and the events, a timeline reads.
const TimelineLimit = 2000

// Timeline returns an entity's dated relations and events between from
// and to (zero: open), ordered by casegraph.Timeline, and the sources the
// events cite. At most TimelineLimit relations and as many events are read;
// more is a BAD_USER_INPUT asking for a narrower range. An unknown id is
// NOT_FOUND.
func (s *Store) Timeline(ctx context.Context, id string, from, to casegraph.PartialDate) ([]casegraph.TimelineItem, []casegraph.Source, error) {
	res, err := s.read(ctx, stmtTimeline, map[string]any{"id": id, "limit": int64(TimelineLimit), "limitPlusOne": int64(TimelineLimit + 1)})
	if err != nil {
		return nil, nil, err
	}
	if len(res.Records) == 0 {
		return nil, nil, casegraph.Errorf(casegraph.CodeNotFound, "no entity with id %q", id)
	}
	rec := res.Records[0]
	if cut, _, err := neo4j.GetRecordValue[bool](rec, "truncated"); err != nil {
		return nil, nil, internalError("Timeline", err)
	} else if cut && from.IsZero() && to.IsZero() {
		return nil, nil, casegraph.Errorf(casegraph.CodeBadUserInput,
			"%q has more than %d dated relations or events: ask for a range with from and to", id, TimelineLimit)
	}
	relMaps, err := getMaps(rec, "relations")
	if err != nil {
		return nil, nil, internalError("Timeline", err)
	}
	eventMaps, err := getMaps(rec, "events")
	if err != nil {
		return nil, nil, internalError("Timeline", err)
	}
	events, relations, err := subgraphFromMaps(eventMaps, relMaps)
	if err != nil {
		return nil, nil, internalError("Timeline", err)
	}
	sources, err := sourcesFromRecord(rec)
	if err != nil {
		return nil, nil, internalError("Timeline", err)
	}
	return casegraph.Timeline(relations, events, from, to), sources, nil
}
