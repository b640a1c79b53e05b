// CountOtherAdminKeys: the live admin keys but $id.
MATCH (k:ApiKey {role: 'admin'})
WHERE k.revokedAt IS NULL AND k.id <> $id
RETURN count(k) AS n
