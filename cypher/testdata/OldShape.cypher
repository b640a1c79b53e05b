// OldShape (tests only): data as written before citations: an entity that
// cites sources by sourceIds alone, and relations with sourceIds and one
// quote (of one source, of two, and none), no citation lists.
MATCH (a:Entity {id: $a}), (b:Entity {id: $b})
REMOVE a.citationQuotes, a.citationLocators, a.citationCredibility, a.citationGrades
SET a.sourceIds = [$graded, $plain]
CREATE (a)-[:MEMBER_OF {id: $dataset + ':one', status: 'REPORTED', dataset: $dataset, sourceIds: [$graded], quote: 'one source'}]->(b)
CREATE (a)-[:EMPLOYED_BY {id: $dataset + ':two', status: 'REPORTED', dataset: $dataset, sourceIds: [$plain, $graded], quote: 'of the first'}]->(b)
CREATE (a)-[:RELATED_TO {id: $dataset + ':none', status: 'REPORTED', dataset: $dataset, sourceIds: [$graded, $plain]}]->(b)
SET a.degree = a.degree + 3, b.degree = b.degree + 3
