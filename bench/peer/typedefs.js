// Type definitions of the peer: Casegraph's graph model as a user of the
// Neo4j GraphQL Library 7 would write it. Every entity node has :Entity and
// one kind label; each relation type of Casegraph's vocabulary (vocabulary.go)
// is a @relationship field with the relation's properties. The service is
// read-only (@mutation(operations: [])): the benchmark only reads. The
// benchmark's queries go through EntityNode, one node type over the :Entity
// label with the generic relations, neighbors and full-text search (its
// description below says why).

// Kinds and their own fields.
const kinds = {
  Person: "nationality: String",
  Organization: "category: String",
  Event: "category: String\n  startDate: String\n  endDate: String",
  Document: "category: String\n  publishedAt: String\n  pageCount: Int\n  url: String",
  Place: "",
};

const P = "Person", O = "Organization", E = "Event", D = "Document", L = "Place";
const actors = [P, O];
const anyKind = [P, O, E, D, L];

// Casegraph's relation vocabulary: type, label, inverse label, from kinds,
// to kinds (an undirected type has label == inverse label).
const vocabulary = [
  ["AUTHORED", "authored", "authored by", actors, [D]],
  ["COMMISSIONED", "commissioned", "commissioned by", actors, [D, E]],
  ["REPRESENTS", "represents", "represented by", actors, actors],
  ["FUNDS", "funds", "funded by", actors, [P, O, E]],
  ["ARMS", "arms", "armed by", actors, actors],
  ["MEMBER_OF", "member of", "has member", actors, [O]],
  ["EMPLOYED_BY", "employed by", "employs", [P], [O]],
  ["HELD_POSITION", "held a position in", "position held by", [P], [O]],
  ["LEADS", "leads", "led by", actors, [O, E]],
  ["PART_OF", "part of", "includes", [O, E], [O, E]],
  ["PROSECUTED", "prosecuted", "prosecuted by", actors, [P, O, E]],
  ["ACCUSED", "accused", "accused by", [P, O, D], actors],
  ["RESPONSIBLE_FOR", "responsible for", "responsibility of", actors, [E]],
  ["PARTICIPATED_IN", "participated in", "had participant", actors, [E]],
  ["LOCATED_IN", "located in", "location of", anyKind, [L]],
  ["PUBLISHED", "published", "published by", actors, [D]],
  ["OBTAINED", "obtained", "obtained by", actors, [D]],
  ["DEFECTED_FROM", "defected from", "defector", [P], [O]],
  ["SOURCE_OF", "source of", "sourced from", [P, O, D], [D, E]],
  ["DOCUMENTS", "documents", "documented in", [D], [E, P, O]],
  ["STATEMENT_ABOUT", "made a statement about", "subject of a statement by", actors, anyKind],
  ["COINCIDES_WITH", "coincides with", "coincides with", [E, D], [E, D]],
  ["WORKED_WITH", "worked with", "worked with", actors, actors],
  ["RELATED_TO", "related to", "related to", anyKind, anyKind],
];

const camel = (label) =>
  label
    .split(" ")
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)))
    .join("");

// The typed relationship fields of each kind: outgoing ones named by the
// label, incoming ones by the inverse label; an undirected type is one
// field queried either way.
function relationshipFields(kind) {
  const fields = [];
  const rel = (name, type, direction, queryDirection) =>
    `  ${name}: [Entity!]! @relationship(type: "${type}", direction: ${direction}, queryDirection: ${queryDirection}, ` +
    `properties: "RelationProperties", nestedOperations: [], aggregate: false)`;
  for (const [type, label, inverse, from, to] of vocabulary) {
    if (label === inverse) {
      if (from.includes(kind) || to.includes(kind)) fields.push(rel(camel(label), type, "OUT", "UNDIRECTED"));
      continue;
    }
    if (from.includes(kind)) fields.push(rel(camel(label), type, "OUT", "DIRECTED"));
    if (to.includes(kind)) fields.push(rel(camel(inverse), type, "IN", "DIRECTED"));
  }
  return fields.join("\n");
}

// The relations of an entity of any type, in relation id order, as
// Casegraph's RelationsOf statement reads them (the library has no field
// for "any relationship type"). direction is the entity's point of view.
const relationsStatement = `
MATCH (this)-[r]-(:Entity)
WHERE $direction = 'BOTH'
   OR ($direction = 'OUTGOING' AND startNode(r) = this)
   OR ($direction = 'INCOMING' AND endNode(r) = this)
WITH r
ORDER BY r.id
LIMIT $first
RETURN r {
  .id, .role, .startDate, .endDate, .status, .confidence, .quote, .sourceIds, .dataset,
  type: type(r),
  from: {id: startNode(r).id, name: startNode(r).name},
  to: {id: endNode(r).id, name: endNode(r).name}
} AS relation`;

// The entities at the other end of those relations, in relation id order:
// a node-typed @cypher field, so the library compiles what is selected on
// them (their own neighbors, say) into the same statement.
const neighborsStatement = `
MATCH (this)-[r]-(other:Entity)
WHERE $direction = 'BOTH'
   OR ($direction = 'OUTGOING' AND startNode(r) = this)
   OR ($direction = 'INCOMING' AND endNode(r) = this)
WITH r, other
ORDER BY r.id
LIMIT $first
RETURN other`;

// Casegraph's Paths statement (cypher/paths/Paths.cypher.tmpl) for
// maxDepth 4, any direction, k 1, without its filters: shortestPath() from
// both ends by their ids (what a user of the library would write for a
// @cypher field, and what Casegraph runs).
const shortestPathStatement = `
OPTIONAL MATCH (a:Entity {id: $from})
OPTIONAL MATCH (b:Entity {id: $to})
OPTIONAL CALL (a, b) {
  WITH a, b WHERE a IS NOT NULL AND b IS NOT NULL AND a <> b
  MATCH p = shortestPath((a)-[*1..4]-(b))
  WHERE all(y IN nodes(p) WHERE y:Entity)
  RETURN p
}
RETURN CASE WHEN p IS NULL THEN NULL
       ELSE {length: length(p), nodes: [n IN nodes(p) | n {.id, .name}]} END AS path`;

const entityFields = `
  id: ID!
  name: String!
  aliases: [String!]
  description: String
  dataset: String!
  sourceIds: [String!]
  version: Int
  createdAt: DateTime
  updatedAt: DateTime`;

const kindTypes = Object.entries(kinds)
  .map(
    ([kind, own]) => `
type ${kind} implements Entity @node(labels: ["${kind}", "Entity"]) @mutation(operations: []) {${entityFields}
  ${own}
${relationshipFields(kind)}
}`,
  )
  .join("\n");

export const typeDefs = `
enum Direction {
  BOTH
  OUTGOING
  INCOMING
}

interface Entity {${entityFields}
}
${kindTypes}

"The properties every relation has (Casegraph's relation properties)."
type RelationProperties @relationshipProperties {
  id: ID!
  role: String
  startDate: String
  endDate: String
  status: String!
  confidence: Float
  quote: String
  sourceIds: [String!]
  dataset: String!
}

"One end of a relation or one entity of a path, as a @cypher map."
type EntityRef {
  id: ID!
  name: String!
}

"A relation read by a @cypher field: its properties and both ends."
type Relation {
  id: ID!
  type: String!
  role: String
  startDate: String
  endDate: String
  status: String!
  confidence: Float
  quote: String
  sourceIds: [String!]
  dataset: String!
  from: EntityRef!
  to: EntityRef!
}

type PathResult {
  length: Int!
  nodes: [EntityRef!]!
}

"""
Every :Entity, whatever its kind: the node type the benchmark's queries go
through. It holds the generic relations and neighbors (@cypher fields) and
the full-text search (the library's @fulltext over Casegraph's index
entity_search: folded names, aliases and descriptions, and scope tokens).

Why not the Entity interface: through an interface the library passes a
@cypher field's arguments to the first implementation only (its
FieldFactory clears field.args once it has read them), so the others run
with null ones (LIMIT NULL). One concrete type over the :Entity label is
also the cheaper query for the library: one index seek, no UNION over the
five kinds. id is a String (not an ID) so that it can be compared (gt) for
keyset pages; the server turns on the String gt filter.
"""
type EntityNode
  @node(labels: ["Entity"])
  @mutation(operations: [])
  @fulltext(
    indexes: [
      { indexName: "entity_search", queryName: "searchEntities", fields: ["searchName", "searchAliases", "searchDescription", "searchScope"] }
    ]
  ) {
  id: String!
  name: String!
  aliases: [String!]
  description: String
  dataset: String!
  sourceIds: [String!]
  version: Int
  createdAt: DateTime
  updatedAt: DateTime
  searchName: String
  searchAliases: String
  searchDescription: String
  searchScope: String
  relations(direction: Direction = BOTH, first: Int = 20): [Relation!]!
    @cypher(statement: """${relationsStatement}""", columnName: "relation")
  neighbors(direction: Direction = BOTH, first: Int = 20): [EntityNode!]!
    @cypher(statement: """${neighborsStatement}""", columnName: "other")
}

type Query {
  "The shortest path of at most 4 relations (Casegraph's SHORTEST 1 pattern), null when there is none."
  shortestPath(from: ID!, to: ID!): PathResult
    @cypher(statement: """${shortestPathStatement}""", columnName: "path")
}
`;
