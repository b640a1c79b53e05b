// MigrateRelationCitations: turns the evidence of relations written
// before citations (sourceIds and at most one quote) into citations, 10000
// relations a transaction: each source cited once, in order, the quote on
// the first source's citation and no quote on the others (the old shape
// could not say which source held it: casegraph.CitationsOf), no locator,
// the typed credibility $credibility (the default) and the grade of each
// from its source's reliability ($reliability, the default, for a source
// without one) and that credibility: a default credibility confirms
// nothing (casegraph.GradeCitations), so no citation migrated is
// confirmed. The quote property then goes. A relation without a source is
// left as it is (it cannot be cited); one migrated already (with
// citationCredibility) too, so running it again writes nothing. Returns
// how many relations it migrated, how many of them had a quote, and of
// those how many cited more than one source.
MATCH ()-[r]->()
WHERE size(r.sourceIds) > 0 AND r.citationCredibility IS NULL
CALL (r) {
  WITH r, r.sourceIds AS ids, coalesce(r.quote, '') AS quote
  SET r.citationQuotes = [i IN range(0, size(ids) - 1) | CASE WHEN i = 0 THEN quote ELSE '' END],
      r.citationLocators = [id IN ids | ''],
      r.citationCredibility = [id IN ids | $credibility],
      r.citationGrades = [id IN ids | coalesce(head([(s:Source {id: id}) | s.reliability]), $reliability) + toString($credibility)]
  REMOVE r.quote
  RETURN quote <> '' AS quoted, quote <> '' AND size(ids) > 1 AS quotedOfSeveral
} IN TRANSACTIONS OF 10000 ROWS
RETURN count(*) AS relations, count(CASE WHEN quoted THEN 1 END) AS quoted,
       count(CASE WHEN quotedOfSeveral THEN 1 END) AS quotedOfSeveral
