// CreateRelations: creates relations that RelationStates found absent
// (their ids claimed by the write gate; should one of the type have been
// created since all the same, its type's relation id constraint refuses
// the batch), and adds to the degree of their ends: once an entity
// for all its rows, a self-loop once, as COUNT { (e)--() } counts it. The
// ends are locked by that SET, in id order, before any relationship is made,
// as UpsertRelation locks them (why is said there). The type comes from the
// validated vocabulary; CREATE looks nothing up, so a dynamic type costs
// nothing here (unlike MERGE). The caller has checked that the ends exist
// and that their kinds suit the type. Returns how many rows found both ends.
UNWIND $rows AS row
MATCH (a:Entity {id: row.from}), (b:Entity {id: row.to})
WITH collect({row: row, a: a, b: b}) AS found
CALL (found) {
  UNWIND found AS f
  UNWIND CASE WHEN f.a = f.b THEN [f.a] ELSE [f.a, f.b] END AS n
  WITH n, count(*) AS added
  ORDER BY n.id
  SET n.degree = n.degree + added
}
CALL (found) {
  UNWIND found AS f
  WITH f.row AS row, f.a AS a, f.b AS b
  CREATE (a)-[r:$(row.type)]->(b)
  SET r = row.properties, r.createdAt = datetime(), r.updatedAt = datetime(),
      r.redactedId = 'protected-' + left(replace(randomUUID(), '-', ''), 16)
}
RETURN size(found) AS written
