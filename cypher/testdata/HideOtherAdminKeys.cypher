// HideOtherAdminKeys: in a test's transaction, which is rolled back, every
// live admin key but $id looks revoked, as if $id were the database's
// last: tests share one database, whose other admin keys are theirs.
MATCH (k:ApiKey {role: 'admin'})
WHERE k.revokedAt IS NULL AND k.id <> $id
SET k.revokedAt = datetime()
