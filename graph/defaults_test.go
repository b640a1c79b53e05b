package graph

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	casegraph "github.com/casegraph/casegraph"
)

// The schema keeps its argument defaults, because clients read them
// through introspection; the domain keeps them as constants, because
// every other surface (the request types' New functions, the complexity
// model, the CLI) reads them there. TestSchemaDefaults holds the two
// together: each default the executable schema declares, on a field's
// argument or an input's field, is the constant listed for it here, and
// a default with no constant listed fails, as does a constant listed for
// a default the schema no longer has. The defaults the schema states only
// in words ("(default 4)", "Default: PRIVATE") are held the same way.

// schemaDefault is the domain's value of one default, where the domain
// keeps it, and the value the GraphQL layer gives when the client gives
// none (nil where no glue of graph's reads the default).
type schemaDefault struct {
	want any
	from string
	glue any
}

// schemaDefaults are the domain's constants for the schema's defaults, by
// place: Type.field(argument) or Input.field; "described " and a place
// for a default its description states in words.
func schemaDefaults() map[string]schemaDefault {
	paths := pathQueryOf("a", "b", nil, nil)
	neighborhood := neighborhoodQueryOf("a", nil, nil, nil)
	duplicates, _ := duplicateQuery("d", nil, nil, nil)
	order := entitiesQueryOf(nil, nil).Order
	chain := commandChainQueryOf("u", "2012", nil, nil, nil)
	incident := whoWasInCommandQueryOf("i", nil, nil, nil, nil)
	d := map[string]schemaDefault{
		"Query.paths(k)":                        {casegraph.DefaultPaths, "casegraph.DefaultPaths", paths.K},
		"Query.neighborhood(depth)":             {casegraph.DefaultNeighborhoodDepth, "casegraph.DefaultNeighborhoodDepth", neighborhood.Depth},
		"Query.neighborhood(limit)":             {casegraph.DefaultNeighborhoodSize, "casegraph.DefaultNeighborhoodSize", neighborhood.Limit},
		"Query.commonNeighbors(limit)":          {casegraph.DefaultCommonNeighbors, "casegraph.DefaultCommonNeighbors", commonNeighborsQueryOf(nil, nil, nil).Limit},
		"Query.suggest(first)":                  {casegraph.DefaultSuggest, "casegraph.DefaultSuggest", suggestQueryOf("ab", nil, nil, nil).First},
		"Query.datasetTimeline(first)":          {casegraph.DefaultDatasetTimeline, "casegraph.DefaultDatasetTimeline", datasetTimelineQueryOf(nil, "2011", "2012", nil).First},
		"Query.commandChain(maxLevels)":         {casegraph.DefaultCommandLevels, "casegraph.DefaultCommandLevels", chain.MaxLevels},
		"Query.commandChain(minReliability)":    {casegraph.ReliabilityF, "casegraph.DefaultGradeFilter", chain.MinReliability},
		"Query.commandChain(minCredibility)":    {int(casegraph.CredibilityUnknown), "casegraph.DefaultGradeFilter", int(chain.MinCredibility)},
		"Query.whoWasInCommand(maxLevels)":      {casegraph.DefaultCommandLevels, "casegraph.DefaultCommandLevels", incident.MaxLevels},
		"Query.whoWasInCommand(maxUnits)":       {casegraph.DefaultIncidentUnits, "casegraph.DefaultIncidentUnits", incident.MaxUnits},
		"Query.whoWasInCommand(minReliability)": {casegraph.ReliabilityF, "casegraph.DefaultGradeFilter", incident.MinReliability},
		"Query.whoWasInCommand(minCredibility)": {int(casegraph.CredibilityUnknown), "casegraph.DefaultGradeFilter", int(incident.MinCredibility)},
		"Query.duplicateCandidates(first)":      {casegraph.DefaultPageSize, "casegraph.DefaultPageSize", duplicates.First},
		"Query.savedQueryVersions(first)":       {casegraph.DefaultSavedQueryVersions, "casegraph.DefaultSavedQueryVersions", savedQueryVersionsQueryOf("q", nil).First},
		"Query.savedViewVersions(first)":        {casegraph.DefaultSavedQueryVersions, "casegraph.DefaultSavedQueryVersions", savedViewVersionsQueryOf("v", nil).First},
		"PathFilter.direction":                  {casegraph.PathAny, "casegraph.DefaultPathFilter", paths.Filter.Direction},
		"PathFilter.minReliability":             {casegraph.ReliabilityF, "casegraph.DefaultGradeFilter", paths.Filter.MinReliability},
		"PathFilter.minCredibility":             {int(casegraph.CredibilityUnknown), "casegraph.DefaultGradeFilter", int(paths.Filter.MinCredibility)},
		"SourceInput.reliability":               {casegraph.DefaultReliability, "casegraph.DefaultReliability (Source.Normalize)", nil},
		"CitationInput.credibility":             {int(casegraph.DefaultCredibility), "casegraph.DefaultCredibility (citationsFromInput)", nil},
		"EntityOrder.field":                     {casegraph.OrderByID, "casegraph.DefaultEntityOrder", order.Field},
		"EntityOrder.direction":                 {"ASC", "casegraph.DefaultEntityOrder", order.Direction()},
		"LinkInput.status":                      {casegraph.DefaultStatus, "casegraph.DefaultStatus (Relation.Normalize)", nil},
		"ApiKeyInput.cleared":                   {false, "casegraph.NewAPIKey (not cleared unless asked)", casegraph.NewAPIKey{}.Cleared},
		"described PathFilter.maxDepth":         {casegraph.DefaultMaxDepth, "casegraph.DefaultMaxDepth", paths.Filter.MaxDepth},
		"described Query.duplicateCandidates":   {casegraph.DefaultPageSize, "casegraph.DefaultPageSize", duplicates.First},
		"described SaveQueryInput.visibility":   {casegraph.VisibilityPrivate, "casegraph.VisibilityPrivate", nil},
		"described SaveViewInput.visibility":    {casegraph.VisibilityPrivate, "casegraph.VisibilityPrivate", nil},
		"described schema":                      {casegraph.DefaultPageSize, "casegraph.DefaultPageSize (a connection's page)", windowSize(nil, nil)},
	}
	for _, t := range entityTypes {
		d[t+".relations(direction)"] = schemaDefault{casegraph.DirectionBoth, "casegraph.DirectionBoth", relationFilterOf(nil, nil).Direction}
	}
	return d
}

// describedDefault finds a default a description states in words.
var describedDefault = regexp.MustCompile(`\(default ([A-Z0-9_]+)\)|Default: ([A-Z0-9_]+)`)

func TestSchemaDefaults(t *testing.T) {
	schema := NewSchema(Stores{}, nil, nil).Schema()
	found := map[string]string{} // place: the schema's value
	described := func(place, text string) {
		for _, m := range describedDefault.FindAllStringSubmatch(text, -1) {
			found["described "+place] = m[1] + m[2]
		}
	}
	described("schema", schema.Description)
	for _, def := range schema.Types {
		if def.BuiltIn {
			continue
		}
		for _, f := range def.Fields {
			place := def.Name + "." + f.Name
			described(place, f.Description)
			for _, a := range f.Arguments {
				described(place+"("+a.Name+")", a.Description)
				if a.DefaultValue != nil {
					found[place+"("+a.Name+")"] = raw(a.DefaultValue)
				}
			}
			if def.Kind == ast.InputObject && f.DefaultValue != nil {
				found[place] = raw(f.DefaultValue)
			}
		}
	}
	want := schemaDefaults()
	for _, place := range sortedKeys(found) {
		d, ok := want[place]
		switch {
		case !ok:
			t.Errorf("%s: the schema's default %s has no domain constant (list it in schemaDefaults, from the constant the resolver uses)", place, found[place])
		case fmt.Sprint(d.want) != found[place]:
			t.Errorf("%s: the schema says %s, the domain (%s) %v", place, found[place], d.from, d.want)
		case d.glue != nil && fmt.Sprint(d.glue) != found[place]:
			t.Errorf("%s: the schema and the domain (%s) say %s, but graph gives %v when the client gives none", place, d.from, found[place], d.glue)
		}
	}
	for _, place := range sortedKeys(want) {
		if _, ok := found[place]; !ok {
			t.Errorf("%s: listed with %s, but the schema has no default there", place, want[place].from)
		}
	}
}

// raw is a default value as the domain's fmt.Sprint spells it.
func raw(v *ast.Value) string {
	return v.Raw
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return slices.Clip(keys)
}
