package main

// request is one of the walks: a GraphQL document, the variables of its
// warm-up and of its measured sending (the same for reads, so that the
// measured one meets what the warm-up warmed; a new entity for the write,
// which would otherwise measure an update), and a check of its answer.
type request struct {
	name     string
	document string
	warm     func(dataset string) map[string]any
	measured func(dataset string) map[string]any
	// want is the path in the answer's data that must not be null.
	want []string
}

// The walks of issue 24, over the seed dataset (caesar-report); the write
// goes into a dataset of the measurer's own (-dataset), deleted before and
// after.
var requests = []request{
	{
		name:     "entity",
		document: `query WalkEntity($id: ID!) { entity(id: $id) { name relations(first: 5) { edges { node { to { name } } } } } }`,
		warm:     fixed(map[string]any{"id": "caesar"}),
		measured: fixed(map[string]any{"id": "caesar"}),
		want:     []string{"entity", "relations"},
	},
	{
		name: "shortestPath",
		document: `query WalkPath($from: ID!, $to: ID!) { shortestPath(from: $from, to: $to, ` +
			`filter: {maxDepth: 4, minConfidence: 0.8, statuses: [REPORTED], excludeRelationTypes: [RELATED_TO]}) ` +
			`{ length steps { from { name } label to { name } relation { type sources { title } } } } }`,
		warm:     fixed(map[string]any{"from": "geoffrey-nice", "to": "qatar-government"}),
		measured: fixed(map[string]any{"from": "geoffrey-nice", "to": "qatar-government"}),
		want:     []string{"shortestPath", "steps"},
	},
	{
		name:     "upsertEntity",
		document: `mutation WalkUpsert($input: EntityInput!) { upsertEntity(input: $input) { id name version } }`,
		warm:     newOrganization("walk-warm", "Walk Warm-up Holdings"),
		measured: newOrganization("walk-measured", "Walk Measured Holdings"),
		want:     []string{"upsertEntity", "id"},
	},
}

// setup is sent before the warm-ups: the source the write cites.
var setup = request{
	name:     "setup",
	document: `mutation WalkSource($input: SourceInput!) { upsertSource(input: $input) { id } }`,
	warm: func(dataset string) map[string]any {
		return map[string]any{"input": map[string]any{"id": "walk-source", "title": "Walk measurement source", "dataset": dataset}}
	},
	want: []string{"upsertSource", "id"},
}

func fixed(vars map[string]any) func(string) map[string]any {
	return func(string) map[string]any { return vars }
}

// newOrganization is the input of a new organization in the dataset,
// citing setup's source.
func newOrganization(id, name string) func(string) map[string]any {
	return func(dataset string) map[string]any {
		return map[string]any{"input": map[string]any{
			"id": id, "kind": "ORGANIZATION", "name": name, "dataset": dataset, "sourceIds": []string{"walk-source"},
		}}
	}
}
