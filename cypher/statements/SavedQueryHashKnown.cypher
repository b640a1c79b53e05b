// SavedQueryHashKnown: whether a document with this SHA-256 is saved.
RETURN EXISTS { MATCH (v:SavedQueryVersion {hash: $hash}) } AS known
