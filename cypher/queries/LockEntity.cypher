// LockEntity: takes the write lock of an entity for the rest of the
// transaction (so a version check and the write that follows it are one
// step), and says what is there: its kind, version and dataset, or the
// survivor when the id was merged away.
OPTIONAL MATCH (e:Entity {id: $id})
OPTIONAL MATCH (:MergedEntity {id: $id})-[:MERGED_INTO]->(s:Entity)
CALL (e) {
  WITH e WHERE e IS NOT NULL
  SET e._lock = true
  REMOVE e._lock
}
RETURN [l IN labels(e) WHERE l <> 'Entity'][0] AS kind,
       coalesce(e.version, 1) AS version,
       e.dataset AS dataset,
       coalesce(e.protected, false) AS protected,
       s.id AS mergedInto
