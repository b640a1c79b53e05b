// CitingClaims: the entities and relations (of any dataset: a source may
// be cited across datasets) that cite any of the sources $ids, with what
// grading their citations needs (the sources they cite, their typed
// credibility) and their grades as stored, for the write that changed
// those sources' reliability or publisher to grade them again in its
// transaction (cypher/citation.go, regrade). A list's items have no
// index: this scans every entity and relationship, and runs only for a
// write that changes a cited source's grade or publisher.
CALL {
  MATCH (e:Entity)
  WHERE any(id IN e.sourceIds WHERE id IN $ids)
  RETURN {id: e.id, type: null, sourceIds: e.sourceIds, citationCredibility: e.citationCredibility,
          citationGrades: e.citationGrades} AS claim
  UNION ALL
  MATCH (:Entity)-[r]->(:Entity)
  WHERE any(id IN r.sourceIds WHERE id IN $ids)
  RETURN {id: r.id, type: type(r), sourceIds: r.sourceIds, citationCredibility: r.citationCredibility,
          citationGrades: r.citationGrades} AS claim
}
RETURN claim
