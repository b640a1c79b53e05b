// Changes: one page of the audit log, newest first (ids sort by time),
// after the cursor's id, within the datasets the caller may read ($readable;
// a change of no dataset, to a saved query, only for those who may read
// every dataset), filtered by an entity among the targets, a dataset, a
// principal and a time. A change of a protected entity only for a caller
// with clearance ($callerCleared).
MATCH (c:Change)
WHERE ($after IS NULL OR c.id < $after)
  AND ($readable IS NULL OR c.dataset IN $readable)
  AND ($callerCleared OR NOT coalesce(c.protected, false))
  AND ($entityId IS NULL OR $entityId IN c.targets)
  AND ($dataset IS NULL OR c.dataset = $dataset)
  AND ($byPrincipal IS NULL OR c.principal = $byPrincipal)
  AND ($since IS NULL OR c.at >= $since)
WITH c
ORDER BY c.id DESC
LIMIT $limit
RETURN c {.id, .at, .principal, .operation, .targets, .dataset, .fields} AS change
