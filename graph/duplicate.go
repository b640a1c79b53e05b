package graph

import (
	"strconv"
	"strings"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/duplicate"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue for duplicate suggestions.

// duplicateList names the cursors of duplicateCandidates; their filter is
// the dataset and kinds, so a cursor of another dataset is refused.
const duplicateList = "duplicateCandidates"

type duplicateFilter struct {
	Dataset string           `json:"d"`
	Kinds   []casegraph.Kind `json:"k"`
}

// duplicateQuery checks duplicateCandidates' arguments and decodes its
// cursor (the last candidate's pair, and its score as the sort key).
func duplicateQuery(dataset string, kinds []model.EntityKind, first *int, after *string) (duplicate.Request, error) {
	q := duplicate.NewRequest(dataset)
	if first != nil {
		q.First = *first
	}
	for _, k := range kinds {
		q.Kinds = append(q.Kinds, kindFromModel(k))
	}
	if err := q.Normalize(); err != nil {
		return q, err
	}
	page, err := pageOf(duplicateList, duplicateFilter{q.Dataset, q.Kinds}, window{first: first, after: after})
	if err != nil {
		return q, err
	}
	if page.After != "" {
		a, b, _ := strings.Cut(page.After, " ")
		score, err := strconv.ParseFloat(page.AfterKey, 64)
		if err != nil { // only after() wrote it: its checksum held
			return q, casegraph.Errorf(casegraph.CodeBadUserInput, "after: not a cursor of this list; use pageInfo.endCursor of the same query")
		}
		q.After = &duplicate.Cursor{Score: score, Pair: duplicate.Pair{A: a, B: b}}
	}
	return q, nil
}

// toDuplicateConnection is a page of candidates as a connection.
func toDuplicateConnection(q duplicate.Request, p duplicate.Page) *model.DuplicateCandidateConnection {
	cs := newCursors(duplicateList, duplicateFilter{q.Dataset, q.Kinds})
	edges, info := connection(p.Candidates, casegraph.Page{First: q.First}, p.HasNext,
		func(_ int, c duplicate.Candidate) (string, model.DuplicateCandidateEdge) {
			cursor := cs.after(c.A+" "+c.B, duplicate.ScoreKey(c))
			reasons := make([]model.DuplicateReason, len(c.Reasons))
			for i, r := range c.Reasons {
				reasons[i] = model.DuplicateReason{Kind: model.DuplicateReasonKind(r.Kind), Detail: r.Detail, Weight: r.Weight}
			}
			return cursor, model.DuplicateCandidateEdge{Cursor: cursor, Node: &model.DuplicateCandidate{
				A: toEntity(c.EntityA), B: toEntity(c.EntityB), Score: c.Score, Reasons: reasons}}
		})
	return &model.DuplicateCandidateConnection{Edges: edges, PageInfo: info, TotalCount: p.Total,
		Compared: p.Compared, SkippedBlocks: p.SkippedBlocks, Truncated: p.Truncated}
}

func toDuplicateDismissal(d duplicate.Dismissal) *model.DuplicateDismissal {
	return &model.DuplicateDismissal{A: d.A, B: d.B, DismissedBy: d.By, DismissedAt: d.At}
}
