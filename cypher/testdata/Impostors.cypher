// Impostors (tests only): two relations of two types under one id, with
// no :RelationId node, as data written before the write gate (and its
// registry of relation ids) may hold.
MATCH (p:Entity {id: $from}), (o:Entity {id: $to})
CREATE (p)-[:MEMBER_OF {id: $id, status: 'REPORTED', dataset: $dataset, sourceIds: [$source]}]->(o)
CREATE (p)-[:EMPLOYED_BY {id: $id, status: 'REPORTED', dataset: $dataset, sourceIds: [$source]}]->(o)
SET p.degree = p.degree + 2, o.degree = o.degree + 2
