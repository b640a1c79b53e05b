// DeleteRelation: removes the relation with the id between the two ends
// (found first by RelationsByID); the from end is an index seek, then its
// relationships are scanned.
MATCH (:Entity {id: $from})-[r {id: $id}]->(:Entity {id: $to})
DELETE r
RETURN count(*) AS deleted
