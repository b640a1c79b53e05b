// LockLiveAdminKeys: before the key $id is revoked, if it is a live admin
// key, takes the write locks of every live admin key (in id order), held
// until the transaction ends. Two revocations of the last two admin keys
// so wait for each other: the second counts the live ones (RevokeAPIKey)
// once the first has committed, and learns that its key is the last.
MATCH (t:ApiKey {id: $id})
WHERE t.role = 'admin' AND t.revokedAt IS NULL
MATCH (k:ApiKey {role: 'admin'})
WHERE k.revokedAt IS NULL
WITH k ORDER BY k.id
SET k.locked = true
REMOVE k.locked
