package graph

import (
	"strings"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// Glue between the domain's entities and the GraphQL models.

func kindToModel(k casegraph.Kind) model.EntityKind {
	return model.EntityKind(strings.ToUpper(string(k)))
}

func kindFromModel(k model.EntityKind) casegraph.Kind {
	s := strings.ToLower(string(k))
	if s == "" {
		return ""
	}
	return casegraph.Kind(strings.ToUpper(s[:1]) + s[1:])
}

// toEntity turns a domain entity into the GraphQL type of its kind.
func toEntity(e casegraph.Entity) model.Entity {
	common := model.EntityFields{ID: e.ID, Kind: kindToModel(e.Kind), Name: e.Name, Aliases: nonNil(e.Aliases),
		Description: optional(e.Description), Dataset: e.Dataset, CreatedAt: timeOf(e.CreatedAt), UpdatedAt: timeOf(e.UpdatedAt),
		Version: int(e.Version), SourceIDs: e.SourceIDs, Cited: e.Citations, Protected: e.Protected || e.Redacted, Redacted: e.Redacted}
	switch e.Kind {
	case casegraph.KindPerson:
		return &model.Person{EntityFields: common, Nationality: optional(e.Nationality),
			BirthDate: datePtr(e.BirthDate), DeathDate: datePtr(e.DeathDate), BirthPlace: optional(e.BirthPlace),
			Gender: enumPtr[model.Gender](string(e.Gender)), Identifiers: identifiersToModel(e.Identifiers),
			Address: optional(e.Address)}
	case casegraph.KindOrganization:
		return &model.Organization{EntityFields: common, Category: enumPtr[model.Category](e.Category),
			Jurisdiction: optional(e.Jurisdiction), FoundingDate: datePtr(e.FoundingDate),
			DissolutionDate: datePtr(e.DissolutionDate), Identifiers: identifiersToModel(e.Identifiers),
			Address: optional(e.Address)}
	case casegraph.KindEvent:
		return &model.Event{EntityFields: common, Category: enumPtr[model.Category](e.Category),
			StartDate: datePtr(e.StartDate), EndDate: datePtr(e.EndDate)}
	case casegraph.KindDocument:
		var pages *int
		if e.PageCount > 0 {
			pages = &e.PageCount
		}
		return &model.Document{EntityFields: common, Category: enumPtr[model.Category](e.Category),
			PublishedAt: datePtr(e.PublishedAt), PageCount: pages, URL: optional(e.URL), Language: optional(e.Language)}
	default: // casegraph.KindPlace; the store only returns known kinds.
		var at *model.Coordinates
		if c := e.Coordinates; c != nil {
			at = &model.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}
		}
		return &model.Place{EntityFields: common, Coordinates: at, CountryCode: optional(e.CountryCode)}
	}
}

// identifiersToModel is never nil: the field is a list that is never
// null (empty for an entity without identifiers, or redacted).
func identifiersToModel(ids []casegraph.Identifier) []model.Identifier {
	out := make([]model.Identifier, len(ids))
	for i, id := range ids {
		out[i] = model.Identifier{Type: model.IdentifierType(id.Type), Value: id.Value, Issuer: optional(id.Issuer)}
	}
	return out
}

// attributesFromInput is the kind-specific part of an entity input; the
// entity's Validate checks which kinds may carry each.
func attributesFromInput(in model.EntityInput) casegraph.Attributes {
	a := casegraph.Attributes{Category: deref(in.Category),
		StartDate: dateString(in.StartDate), EndDate: dateString(in.EndDate), PublishedAt: dateString(in.PublishedAt),
		URL: deref(in.URL), Nationality: deref(in.Nationality), Protected: in.Protected != nil && *in.Protected,
		BirthDate: dateString(in.BirthDate), DeathDate: dateString(in.DeathDate), BirthPlace: deref(in.BirthPlace),
		Gender: casegraph.Gender(deref(in.Gender)), Address: deref(in.Address), Jurisdiction: deref(in.Jurisdiction),
		FoundingDate: dateString(in.FoundingDate), DissolutionDate: dateString(in.DissolutionDate),
		CountryCode: deref(in.CountryCode), Language: deref(in.Language)}
	if in.PageCount != nil {
		a.PageCount = *in.PageCount
	}
	for _, id := range in.Identifiers {
		a.Identifiers = append(a.Identifiers, casegraph.Identifier{Type: casegraph.IdentifierType(id.Type),
			Value: id.Value, Issuer: deref(id.Issuer)})
	}
	if c := in.Coordinates; c != nil {
		a.Coordinates = &casegraph.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}
	}
	return a
}

// timeOf is t, or nil for the zero time: a redacted entity's, which has
// no times to show.
func timeOf(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// entityFromInput turns an input into a domain entity, making up an id when
// the input has none, and normalizes (NFC) and validates it.
func entityFromInput(in model.EntityInput) (casegraph.Entity, *int64, error) {
	kind := kindFromModel(in.Kind)
	sourceIDs, err := casegraph.BareIDs(casegraph.NodeSource, "sourceIds", in.SourceIds)
	if err != nil {
		return casegraph.Entity{}, nil, err
	}
	cited, err := citationsFromInput(in.Citations)
	if err != nil {
		return casegraph.Entity{}, nil, err
	}
	e := casegraph.Entity{
		ID: deref(in.ID), Kind: kind, Name: in.Name, Aliases: in.Aliases, Description: deref(in.Description),
		Dataset: in.Dataset, SourceIDs: sourceIDs, Citations: cited, Attributes: attributesFromInput(in),
	}
	e.KeepProtection = in.Protected == nil
	if e.ID == "" {
		e.ID = casegraph.NewID(strings.ToLower(string(kind)), in.Name)
	}
	var expected *int64
	if in.Version != nil {
		v := int64(*in.Version)
		if v < 1 {
			return e, nil, casegraph.Errorf(casegraph.CodeBadUserInput, "version %d: versions count from 1", v)
		}
		expected = &v
	}
	return e, expected, e.Normalize()
}

// optionalBareID is BareID of an optional id argument ("" when absent).
func optionalBareID(t casegraph.NodeType, id *string) (string, error) {
	if id == nil || *id == "" {
		return "", nil
	}
	return casegraph.BareID(t, "id", *id)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

func enumPtr[T ~string](s string) *T {
	if s == "" {
		return nil
	}
	v := T(s)
	return &v
}

func datePtr(s string) *model.PartialDate {
	return enumPtr[model.PartialDate](s)
}

func dateString(d *model.PartialDate) string {
	return deref(d)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
