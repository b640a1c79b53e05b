// MigrateEntityCitations: gives the entities written before citations
// (sourceIds alone) their citations, 10000 entities a transaction, as
// MigrateRelationCitations does relations' (each source cited once, with
// the default credibility $credibility and its grade): an entity had no
// quote, so its quotes and locators are the empty lists of a claim none of
// whose citations has any (as UpsertEntities writes them). The content
// hash stays: what an import hashes of an entity cited the old way has not
// changed. Returns how many entities it migrated.
MATCH (e:Entity)
WHERE size(e.sourceIds) > 0 AND e.citationGrades IS NULL
CALL (e) {
  WITH e, e.sourceIds AS ids
  SET e.citationQuotes = [],
      e.citationLocators = [],
      e.citationCredibility = [],
      e.citationGrades = [id IN ids | coalesce(head([(s:Source {id: id}) | s.reliability]), $reliability) + toString($credibility)]
} IN TRANSACTIONS OF 10000 ROWS
RETURN count(*) AS entities
