// Squatters (tests only): an entity and a source whose ids are of a
// reserved form, as data written before the write gate refused them may
// hold.
CREATE (e:Entity:Person {id: $entity, name: 'Squatter', dataset: $dataset, sourceIds: [$source], degree: 0, version: 1})
CREATE (s:Source {id: $source, title: 'Squatter', dataset: $dataset})
