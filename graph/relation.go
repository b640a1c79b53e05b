package graph

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue between the domain's relations and the GraphQL models.

func toRelation(r casegraph.Relation) *model.Relation {
	return &model.Relation{
		ID: casegraph.NodeID(casegraph.NodeRelation, r.ID), Type: model.RelationType(r.Type), FromID: r.FromID, ToID: r.ToID,
		Role: optional(r.Role), StartDate: datePtr(r.StartDate), EndDate: datePtr(r.EndDate),
		Status: model.RelationStatus(r.Status), Confidence: r.Confidence, Quote: optional(r.Quote),
		SourceIDs: r.SourceIDs, Cited: r.Citations, Dataset: r.Dataset,
		Share: r.Share, Amount: r.Amount, Currency: optional(r.Currency),
		Relationship: enumPtr[model.FamilyRelationship](string(r.Relationship)), Post: optional(r.Post), Rank: optional(r.Rank),
	}
}

// relationFromInput turns a link input into a domain relation, making up an
// id when the input has none, and normalizes it (a status of null is
// casegraph.DefaultStatus, text in NFC) and validates it. dataset is used
// when the input names none.
func relationFromInput(in model.LinkInput, dataset string) (casegraph.Relation, error) {
	id, err := optionalBareID(casegraph.NodeRelation, in.ID)
	if err != nil {
		return casegraph.Relation{}, err
	}
	sourceIDs, err := casegraph.BareIDs(casegraph.NodeSource, "sourceIds", in.SourceIds)
	if err != nil {
		return casegraph.Relation{}, err
	}
	cited, err := citationsFromInput(in.Citations)
	if err != nil {
		return casegraph.Relation{}, err
	}
	r := casegraph.Relation{
		ID: id, Type: casegraph.RelationType(in.Type), FromID: in.From, ToID: in.To,
		Role: deref(in.Role), StartDate: dateString(in.StartDate), EndDate: dateString(in.EndDate),
		Confidence: in.Confidence, Quote: deref(in.Quote),
		SourceIDs: sourceIDs, Citations: cited, Dataset: deref(in.Dataset),
		RelationAttributes: casegraph.RelationAttributes{Share: in.Share, Amount: in.Amount, Currency: deref(in.Currency),
			Relationship: casegraph.FamilyRelationship(deref(in.Relationship)), Post: deref(in.Post), Rank: deref(in.Rank)},
	}
	if in.Status != nil {
		r.Status = casegraph.Status(*in.Status)
	}
	if r.Dataset == "" {
		r.Dataset = dataset
	}
	if r.ID == "" {
		r.ID = casegraph.NewID("rel", string(in.Type))
	}
	return r, r.Normalize()
}

func toRelationTypeInfo(s casegraph.RelationSpec) model.RelationTypeInfo {
	kinds := func(ks []casegraph.Kind) []model.EntityKind {
		out := make([]model.EntityKind, len(ks))
		for i, k := range ks {
			out[i] = kindToModel(k)
		}
		return out
	}
	return model.RelationTypeInfo{
		Type: model.RelationType(s.Type), Label: s.Label, InverseLabel: s.InverseLabel,
		FromKinds: kinds(s.FromKinds), ToKinds: kinds(s.ToKinds), Directed: s.Directed,
		Properties: append([]string{}, s.Properties...),
	}
}

func relationFilterOf(types []model.RelationType, direction *model.Direction) casegraph.RelationFilter {
	f := casegraph.RelationFilter{Direction: casegraph.DirectionBoth}
	if direction != nil {
		f.Direction = casegraph.Direction(*direction)
	}
	for _, t := range types {
		f.Types = append(f.Types, casegraph.RelationType(t))
	}
	return f
}
