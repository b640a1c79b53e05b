// DeleteSavedQuery: removes a saved query with all its versions; returns
// how many versions went (no row when there is no such query).
MATCH (q:SavedQuery {name: $name})
OPTIONAL MATCH (q)-[:VERSION]->(v:SavedQueryVersion)
WITH q, collect(v) AS versions
FOREACH (v IN versions | DETACH DELETE v)
DETACH DELETE q
RETURN size(versions) AS versions
