// TouchAPIKey: records that a key was used, at most once a minute, so that
// a busy key does not turn every read into a write.
MATCH (k:ApiKey {id: $id})
WHERE k.lastUsedAt IS NULL OR k.lastUsedAt < datetime() - duration('PT1M')
SET k.lastUsedAt = datetime()
