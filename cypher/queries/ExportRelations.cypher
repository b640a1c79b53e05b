// ExportRelations: every relation of the datasets ($datasets null: all)
// between entities, in id order.
MATCH (a:Entity)-[r]->(b:Entity)
WHERE $datasets IS NULL OR r.dataset IN $datasets
RETURN r {
  .id, .role, .startDate, .endDate, .status, .confidence, .quote, .sourceIds, .dataset,
  type: type(r), from: a.id, to: b.id
} AS relation
ORDER BY relation.id
