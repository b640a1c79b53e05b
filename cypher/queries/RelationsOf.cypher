// RelationsOf: for each entity, one page of its relations in id order
// (after the cursor's id, '' for the first page), filtered by type and
// direction, with the total that matches. One round trip for every entity
// of a request. The direction is the entity's point of view: OUTGOING means
// the entity is the relation's from end. ORDER BY ... LIMIT keeps only the
// top $limit while it scans the entity's relations.
UNWIND $ids AS key
MATCH (e:Entity {id: key})
CALL (e) {
  MATCH (e)-[r]-(:Entity)
  WHERE ($types IS NULL OR type(r) IN $types)
    AND ($direction = 'BOTH'
         OR ($direction = 'OUTGOING' AND startNode(r) = e)
         OR ($direction = 'INCOMING' AND endNode(r) = e))
    AND r.id > $after
  WITH r
  ORDER BY r.id
  LIMIT $limit
  RETURN collect(r {
    .id, .role, .startDate, .endDate, .status, .confidence, .quote, .sourceIds, .dataset,
    type: type(r), from: startNode(r).id, to: endNode(r).id
  }) AS relations
}
RETURN key,
       relations,
       COUNT {
         MATCH (e)-[r]-(:Entity)
         WHERE ($types IS NULL OR type(r) IN $types)
           AND ($direction = 'BOTH'
                OR ($direction = 'OUTGOING' AND startNode(r) = e)
                OR ($direction = 'INCOMING' AND endNode(r) = e))
       } AS total
