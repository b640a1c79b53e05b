// ChangeFeed: the changes after a number of the change feed, in the order
// they committed (RecordChange), within the datasets the caller may read
// ($readable; a change of no dataset, to a saved query or a key, only for
// those who may read every dataset), a change of a protected entity only
// for a caller with clearance, and within $datasets when it is not null.
MATCH (c:Change)
WHERE c.seq > $after
  AND ($readable IS NULL OR c.dataset IN $readable)
  AND ($callerCleared OR NOT coalesce(c.protected, false))
  AND ($datasets IS NULL OR c.dataset IN $datasets)
WITH c
ORDER BY c.seq
LIMIT $limit
RETURN c {.id, .seq, .at, .principal, .operation, .targets, .dataset, .fields} AS change
