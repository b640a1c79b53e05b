// SelfLoop (tests only): a relation from an entity to itself, as data
// written before the write gate refused them may hold, with the degree a
// write keeps (a self-loop counts once).
MATCH (e:Entity {id: $entity})
CREATE (e)-[r:LOCATED_IN {id: $id, status: 'REPORTED', dataset: $dataset, sourceIds: [$source]}]->(e)
SET r.createdAt = datetime(), r.updatedAt = datetime(),
    r.redactedId = 'protected-' + left(replace(randomUUID(), '-', ''), 16),
    e.degree = e.degree + 1
