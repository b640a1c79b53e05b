// A page of an entity's relations read in order from the :RelationId
// registry (issue 28 item 2): each relation's node there holds its ends'
// ids and its page key (pageKey: redactedId when an end is protected,
// else its id, the order an uncleared caller sees; id the order a cleared
// one sees), kept by every write that creates, moves or re-protects a
// relation and backfilled by migrate (BackfillRelationEnds).
CREATE INDEX relation_id_from_key IF NOT EXISTS
FOR (c:RelationId) ON (c.fromId, c.pageKey)
