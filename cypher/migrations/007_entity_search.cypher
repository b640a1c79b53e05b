// Full-text search over names, aliases and descriptions. The indexed
// properties hold text folded by casegraph.Fold when it is written (case,
// accents and Arabic short vowels removed, composed or not), so the
// analyzer only splits words; it keeps stop words, which are names too
// ("The Hague"). searchScope holds a token for the entity's dataset and one
// for its kind, so that a search limited to them is limited inside Lucene,
// not after it (where a big dataset would crowd a small one out).
CREATE FULLTEXT INDEX entity_search IF NOT EXISTS
FOR (e:Entity) ON EACH [e.searchName, e.searchAliases, e.searchDescription, e.searchScope]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: 'standard-no-stop-words',
  `fulltext.eventually_consistent`: false
}}
