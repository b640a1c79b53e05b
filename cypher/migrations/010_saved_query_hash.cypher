// Trusted documents: is this document (by SHA-256) a saved one?
CREATE INDEX saved_query_hash IF NOT EXISTS
FOR (v:SavedQueryVersion) ON (v.hash)
