// Full-text search over names, aliases and descriptions. The indexed
// properties hold text folded by casegraph.Fold when it is written (case,
// accents and Arabic short vowels removed, composed or not), so the
// analyzer only splits words; it keeps stop words, which are names too
// ("The Hague").
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS
FOR (e:Entity) ON EACH [e.searchName, e.searchAliases, e.searchDescription]
OPTIONS {indexConfig: {
  `fulltext.analyzer`: 'standard-no-stop-words',
  `fulltext.eventually_consistent`: false
}}
