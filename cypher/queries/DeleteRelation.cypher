// DeleteRelation: removes the relation with the id between the two ends
// (found first by RelationsByID), and takes one off the degree of each end.
// The ends are locked first, in id order, as UpsertRelation locks them (why
// is said there). The from end is an index seek, then its relationships are
// scanned. No row when nothing was deleted.
MATCH (a:Entity {id: $from}), (b:Entity {id: $to})
CALL (a, b) {
  UNWIND CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END AS n
  SET n._lock = true
  REMOVE n._lock
}
MATCH (a)-[r {id: $id}]->(b)
DELETE r
WITH a, b, count(*) AS deleted
FOREACH (n IN CASE WHEN a = b THEN [a] ELSE [a, b] END | SET n.degree = n.degree - deleted)
RETURN deleted
