// Package casegraph is Casegraph's domain: what every layer shares, one
// file per noun. Each file holds its noun's type, its filters and request
// types, their defaults and limits, their Validate, and any pure planner:
//
//   - entity.go: an entity, its kinds, its filter and order, and the read
//     a GraphQL selection compiles to (EntityRead); property.go: the
//     table of its kind-specific properties; identifier.go: the typed
//     identifiers of people and organizations;
//   - relation.go: a relation, its statuses, the vocabulary of relation
//     types and what each allows, and the filter and page of an entity's
//     relations;
//   - source.go: a source (the evidence a statement cites);
//   - path.go: path searches, neighbourhoods, connections and common
//     neighbours, their filter, and why a search found nothing;
//   - search.go: full-text search, type-ahead suggestions and their
//     ranking, and the counts of a search;
//   - timeline.go, dataset.go, savedquery.go, change.go (the audit log),
//     merge.go, write.go (what one write puts into the graph);
//   - access.go: principals, roles, scopes and clearance, the rules every
//     gate applies; apikey.go: API keys;
//   - page.go, node.go (Relay's global ids), id.go, text.go (free-text
//     rules and folding), date.go (partial dates), idempotency.go and
//     errors.go (the codes the GraphQL boundary turns into
//     extensions.code).
//
// Entity resolution (duplicate suggestions) is a package of its own,
// duplicate.
//
// Requests: what a client asks of the graph, one type per question, each
// with the one Validate (or Normalize) that holds every rule and limit of
// its arguments. The GraphQL layer converts its arguments into these, with
// an absent argument given its default here, and calls Validate before the
// store; the store checks only what needs the graph (that an id exists,
// that merged entities are of one kind).
package casegraph
