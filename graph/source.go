package graph

import (
	"cmp"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue between the domain's sources and the GraphQL models.

func toSource(s casegraph.Source) model.Source {
	return model.Source{
		ID: casegraph.NodeID(casegraph.NodeSource, s.ID), Title: s.Title, Publisher: optional(s.Publisher), URL: optional(s.URL),
		PublishedAt: datePtr(s.PublishedAt), RetrievedAt: datePtr(s.RetrievedAt), Dataset: s.Dataset,
		Kind: enumPtr[model.SourceKind](string(s.Kind)), Language: optional(s.Language), ArchivedURL: optional(s.ArchivedURL),
		Sha256: optional(s.SHA256), Reliability: model.Reliability(cmp.Or(s.Reliability, casegraph.DefaultReliability)),
	}
}

func sourceFromInput(in model.SourceInput) (casegraph.Source, error) {
	id, err := optionalBareID(casegraph.NodeSource, in.ID)
	if err != nil {
		return casegraph.Source{}, err
	}
	s := casegraph.Source{
		ID: id, Title: in.Title, Publisher: deref(in.Publisher), URL: deref(in.URL),
		PublishedAt: dateString(in.PublishedAt), RetrievedAt: dateString(in.RetrievedAt), Dataset: in.Dataset,
		Language: deref(in.Language), ArchivedURL: deref(in.ArchivedURL), SHA256: deref(in.Sha256),
		Reliability: casegraph.DefaultReliability,
	}
	if in.Kind != nil {
		s.Kind = casegraph.SourceKind(*in.Kind)
	}
	if in.Reliability != nil {
		s.Reliability = casegraph.Reliability(*in.Reliability)
	}
	if s.ID == "" {
		s.ID = casegraph.NewID("source", in.Title)
	}
	return s, s.Normalize()
}
