package graph

import (
	"context"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
	"github.com/casegraph/casegraph/loaders"
)

// Glue between the domain's citations and the GraphQL models.

// citationsFromInput turns citation inputs into the domain's, their source
// ids bare (a source's node id or its own); credibility left out is
// casegraph.DefaultCredibility, as the schema's default says.
func citationsFromInput(in []model.CitationInput) ([]casegraph.Citation, error) {
	out := make([]casegraph.Citation, len(in))
	for i, c := range in {
		id, err := casegraph.BareID(casegraph.NodeSource, "citations.sourceId", c.SourceID)
		if err != nil {
			return nil, err
		}
		out[i] = casegraph.Citation{SourceID: id, Quote: deref(c.Quote), Locator: deref(c.Locator), Credibility: casegraph.DefaultCredibility}
		if c.Credibility != nil {
			out[i].Credibility = casegraph.Credibility(*c.Credibility)
		}
	}
	return out, nil
}

// citationLists resolves lists of citations: their sources through the
// request's loaders (the gate's read of sources), each list without the
// citations of a source the caller may not read, as sources leaves such a
// source out.
func citationLists(ctx context.Context, lists [][]casegraph.Citation) ([][]model.Citation, error) {
	var ids []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, c := range l {
			if !seen[c.SourceID] {
				seen[c.SourceID] = true
				ids = append(ids, c.SourceID)
			}
		}
	}
	byID, err := loaders.Sources(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]model.Citation, len(lists))
	for i, l := range lists {
		out[i] = make([]model.Citation, 0, len(l))
		for _, c := range l {
			if s, ok := byID[c.SourceID]; ok {
				out[i] = append(out[i], toCitation(c, s))
			}
		}
	}
	return out, nil
}

// citations resolves one entity's citations (citationLists).
func citations(ctx context.Context, cs []casegraph.Citation) ([]model.Citation, error) {
	lists, err := citationLists(ctx, [][]casegraph.Citation{cs})
	if err != nil {
		return nil, err
	}
	return lists[0], nil
}

// toCitation is a citation of src. A grade not stored yet (data that
// migrate has not given citations) reads as the source's reliability and
// the typed credibility.
func toCitation(c casegraph.Citation, src casegraph.Source) model.Citation {
	grade := c.Grade
	if grade == "" {
		grade = casegraph.GradeOf(src.Reliability, c.Credibility)
	}
	return model.Citation{Source: new(toSource(src)), Quote: optional(c.Quote), Locator: optional(c.Locator),
		Credibility: int(grade.Credibility()), TypedCredibility: int(c.Credibility), Grade: string(grade)}
}
